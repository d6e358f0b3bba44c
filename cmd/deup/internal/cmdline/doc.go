// Package cmdline is the plumbing of deup's command line, shared by every
// command in package cli: the command tree and its dispatch (Command,
// Main), the environment a command may touch (Env), flag sets whose help
// goes to stdout and whose usage errors go to stderr (NewFlagSet,
// ParseArgs, ErrUsage), the checks of flag values (Check, Want) and of the
// files a command line names (NeedFile, NeedOutDir), the flags that mean
// the same in every command (WorkersFlag, SeedFlag), and the translation of
// the project's errors into messages a user can act on (UserMessage).
//
// It is a leaf: it imports no package of the project outside internal/,
// and knows nothing of screens, models or campaigns, so that each command
// in cli is only its flags, a call of a domain function, and its output
// (the layout of cmd/go, whose internal/base serves its commands alike).
package cmdline

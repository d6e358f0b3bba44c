package active

import "github.com/deup-screening/deup/active/ledger"

// StoreOf is an in-memory Store holding evs as they are, Seq included: the
// external tests build bad ledgers with it.
func StoreOf(evs []ledger.Event) Store { return &memoryStore{events: evs} }

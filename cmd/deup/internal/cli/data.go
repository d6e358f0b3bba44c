package cli

// dataCommand groups the data-layer subcommands: import, inspect, synth,
// fetch, signatures, synergy. Each subcommand lives in its own file (data_*.go).
func dataCommand() *Command {
	return &Command{
		Name:  "data",
		Short: "import, inspect, generate and fetch screens and signatures",
		Subs: []*Command{
			// data_*.go files append here.
			dataImportCommand(),
			dataInspectCommand(),
			dataSynthCommand(),
			dataFetchCommand(),
			dataSignaturesCommand(),
			dataSynergyCommand(),
		},
	}
}

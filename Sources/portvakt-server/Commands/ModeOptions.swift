import ArgumentParser
import PortvaktServer

/// Operator commands work on a production configuration unless `--dev` says otherwise.
struct ModeOptions: ParsableArguments {
    @Flag(help: "Use the development configuration, as `portvakt-server dev` does.")
    var dev = false

    var mode: ServerConfiguration.Environment { dev ? .development : .production }
}

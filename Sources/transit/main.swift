import Glibc
import TransitCLI

exit(Transit.main(CommandLine.arguments.dropFirst(), context: .live()))

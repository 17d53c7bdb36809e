import Glibc
import TransitCLI

/// The process's context, a global: what it keeps (the timetables opened) is never released,
/// since `exit` ends the process without running deinitialisers and the kernel closes the files.
let context = CommandContext.live()
exit(Transit.main(CommandLine.arguments.dropFirst(), context: context))

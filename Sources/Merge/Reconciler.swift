import GTFSRealtime
import TransitModel

/// Reconciles the timetable with realtime: schedule and predictions in, answers out.
///
/// Pure: no I/O, no clock of its own, no time zones; the caller passes `now`.
public enum Reconciler {}

#ifndef C_SIGNAL_CLEANUP_H
#define C_SIGNAL_CLEANUP_H

/// Registers `path` to be unlinked if SIGINT, SIGTERM or SIGHUP ends the process, installing the handler for each
/// of those signals whose disposition is still the default (an ignored or otherwise handled signal is left alone).
///
/// The handler unlinks every registered path (unlink is async-signal-safe), restores the signal's default action
/// and raises it again, so the process ends as it would have, killed by that signal (a shell reports 128 + the
/// signal number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), minus its temporary files.
///
/// Returns the slot to pass to `altimetry_cleanup_unregister`, or -1 when the path is too long or all slots are
/// taken (the path is then not removed on a signal).
int altimetry_cleanup_register(const char *path);

/// Forgets the path in `slot` (a value from `altimetry_cleanup_register`; -1 is ignored).
void altimetry_cleanup_unregister(int slot);

#endif

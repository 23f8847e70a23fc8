// Where fakehost writes a file it produces (reports, transcripts, baselines, scenarios, generated
// project files): the one place that decides whether a path may be written, and how.
//
// The rules, in this order, checked before a command runs anything (CheckDestination) and applied
// when it writes (WriteFileAtomically). Whatever the rule, the check proves it the way the write
// will do it, never with access(2), which says yes to root almost everywhere (/sys included):
//  - an empty path is refused: it would otherwise mean "absent", or "/" once a name is joined;
//  - the file fakehost's standard output or error is open on, by any name (/dev/stdout,
//    /dev/fd/1, /proc/self/fd/2, the terminal's node, the file stdout was redirected to), is
//    written in place, into that descriptor;
//  - a FIFO is opened for writing at the check, without waiting: one that nobody reads is
//    refused then ("nobody reads the FIFO; start its reader first"), not found at the end of the
//    run or waited for. The descriptor is held until the report is written into it, so the reader
//    that was there at the check is the one that gets it;
//  - a character device: /dev/null (1:3, under any name) and terminals (the kernel's tty
//    drivers, /proc/tty/drivers; not /dev/ptmx) are opened at the check and held the same way;
//    any other device (/dev/full, /dev/zero, a watchdog) is refused, and not even opened;
//  - a directory, a socket or a block device is refused;
//  - under /dev/ and /proc/ nothing is created and no regular file is written or replaced (a
//    symbolic link that leads there counts as there): replacing /dev/null with a regular file as
//    root, or writing a report into /proc/sys, is what this prevents;
//  - any other regular file, existing or to be created, is written atomically: the content goes
//    to a temporary file in the same directory (O_CREAT|O_EXCL), which is renamed over the file,
//    so a reader never sees half a report. A symbolic link is followed (the link stays, its
//    target is replaced); the file keeps its permission bits; missing parent directories are
//    created. The check makes the write's first creation and removes it at once (the temporary
//    file, or the first missing directory), so a directory that takes no new file (read-only,
//    /sys as root) is refused before the run. An existing file must also be writable.
// So a destination that passed the check fails at the write (exit 3) only for what no check can
// see beforehand: a full disk, a FIFO whose reader left, a standard output that refuses bytes.
#pragma once

#include <string>

namespace fakehost::report {

/// Whether `path` may be written under the rules above, before anything runs: false with
/// `*error` ("an empty path", "cannot write /tmp: it is a directory", "cannot write /sys/r.json:
/// cannot create a file in /sys: Permission denied") otherwise. A stream (a FIFO, a terminal,
/// /dev/null, the standard output or error) is opened here and its descriptor held, by `path`
/// as given, for the WriteFileAtomically of the same `path`; each check of one path is matched
/// by one write, and the last write closes it. A held stream whose write never comes stays open
/// until the process exits.
bool CheckDestination(const std::string& path, std::string* error);

/// The same for a directory fakehost writes files into (--out, --transcripts): empty is
/// refused, an existing one must be a directory that takes a new file, a missing one must be
/// creatable (both proven by creating and removing one, as above).
bool CheckDestinationDir(const std::string& dir, std::string* error);

/// Writes `content` to `path` under the rules above: into the stream CheckDestination holds for
/// `path`, else by the rules applied now. False with `*error` ("cannot write P: ...").
bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error);

}  // namespace fakehost::report

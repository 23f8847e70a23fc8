// Where fakehost writes a file it produces (reports, transcripts, baselines, scenarios, generated
// project files): the one place that decides whether a path may be written, and how.
//
// The rules, checked before a command runs anything (CheckDestination) and applied when it
// writes (WriteFileAtomically):
//  - an empty path is refused: it would otherwise mean "absent", or "/" once a name is joined;
//  - a path under /dev/ or /proc/ names a stream the kernel already has (/dev/null, /dev/stdout,
//    a terminal, /proc/self/fd/N): it is written in place, appending, and never created,
//    truncated or replaced. So is a FIFO anywhere, opened without waiting: one that nobody reads
//    is an error, not a hang. Replacing /dev/null with a regular file as root is what this
//    prevents;
//  - any other existing file must be a regular file (a directory, socket or block device is
//    refused), and is replaced atomically: the content goes to a temporary file in the same
//    directory, which is renamed over it, so a reader never sees half a report. A symbolic link
//    is followed (the link stays, its target is replaced); the file keeps its permission bits;
//  - a new file is created the same way, with its missing parent directories.
#pragma once

#include <string>

namespace fakehost::report {

/// Whether `path` may be written under the rules above, before anything runs: false with
/// `*error` ("an empty path", "/tmp is a directory", "cannot write in /etc: Permission
/// denied") otherwise. A write can still fail later (a full disk, /dev/full, a FIFO nobody
/// reads); WriteFileAtomically says so then.
bool CheckDestination(const std::string& path, std::string* error);

/// The same for a directory fakehost writes files into (--out, --transcripts): empty is
/// refused, an existing one must be a writable directory, a missing one must be creatable.
bool CheckDestinationDir(const std::string& dir, std::string* error);

/// Writes `content` to `path` under the rules above. False with `*error` ("cannot write P: ...").
bool WriteFileAtomically(const std::string& path, const std::string& content, std::string* error);

}  // namespace fakehost::report

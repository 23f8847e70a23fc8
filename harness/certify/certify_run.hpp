// Plays a suite against every plugin of a corpus, as a matrix: run::Execute over the corpus.
//
// Every (plugin, scenario) pair is one work item of the run's one budget of parallel scenarios
// (run/execute.hpp): at most about `jobs` plugins are in flight, and a row is finished (graded,
// handed to `on_row`) as soon as its last scenario ends. A scenario's full result lives only
// until it is reduced to a Cell and its transcript re-validated against the candidate schema if
// there is one. A plugin whose manifest its host would refuse, or that cannot be resolved to
// something runnable, is a row with that verdict and costs no work item.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/certify/matrix.hpp"
#include "harness/run/execute.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::certify {

struct CertifyRequest {
  /// The protocol, the suite, the selection, jobs, strictness, timeout, interruption, err: as
  /// for a run (no plugins: Certify gives it the corpus).
  run::RunRequest run;
  std::vector<std::string> dirs;  ///< the corpus's plugin directories (corpus.hpp)
  /// Re-validates every checked frame against this schema too; may be null.
  const schema::FrameSchema* candidate = nullptr;
  std::size_t rejections_kept = 20;  ///< rejections listed per plugin (all are counted)
  /// Once everything is checked, before the first row: the matrix's header and columns.
  std::function<void(const Matrix&)> on_start;
  std::function<void(const Row&)> on_row;  ///< as each row is finished, one at a time
};

struct CertifyOutcome {
  /// kBadInput (nothing run), kHarnessError (a cell errored, the run was interrupted) or kOk:
  /// the matrix's own verdict (certify::ExitCode, after any --since diff) is the caller's.
  int exit_code = run::kOk;
  Matrix matrix;  ///< rows unsorted (Finish sorts them)
};

CertifyOutcome Certify(const CertifyRequest& request);

}  // namespace fakehost::certify

// Plays a suite against every plugin of a corpus with one shared budget of parallel scenarios.
//
// Every (plugin, scenario) pair is one work item; `jobs` workers take them in plugin order, so
// at most about `jobs` plugins are in flight and a row is finished (graded, handed to
// `on_row`) as soon as its last scenario ends. A scenario's full result lives only inside the
// worker that played it: it is reduced to a Cell, its transcript is re-validated against the
// candidate schema if there is one, and it is dropped. A plugin whose manifest its host would
// refuse, or that cannot be resolved to something runnable, is a row with that verdict and
// costs no work item.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "harness/certify/matrix.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/scenario/model.hpp"

namespace fakehost::schema {
class FrameSchema;
}

namespace fakehost::certify {

struct CertifyOptions {
  int jobs = 1;
  scenario::PlayOptions play;  ///< strict, timeout, interruption
  process::Limits limits;      ///< per plugin process
  /// Re-validates every checked frame against this schema too; may be null.
  const schema::FrameSchema* candidate = nullptr;
  std::size_t rejections_kept = 20;  ///< rejections listed per plugin (all are counted)
  bool manifest_selected = true;     ///< the manifest/loads-in-host column is shown
};

/// Runs `selected` (the interpreter's scenarios; not the manifest one) against every plugin
/// directory in `dirs`. `schema` is the protocol's own schema (verdicts); may be null.
/// `on_row` is called, serialised, as each row is finished. Returns the rows (unsorted).
std::vector<Row> Certify(const std::vector<std::string>& dirs,
                         const std::vector<const scenario::Scenario*>& selected,
                         const protocol::Profile& profile, const schema::FrameSchema* schema,
                         const CertifyOptions& options,
                         const std::function<void(const Row&)>& on_row);

}  // namespace fakehost::certify

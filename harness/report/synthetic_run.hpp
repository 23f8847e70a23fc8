// A made-up run for the report benchmark and tests: `scenarios` results over a few sections with
// every status, each with `frames` transcript entries (handshake, pings, a schema violation on
// failing ones). No process is involved; reporters take plain structs.
#pragma once

#include <cstddef>

#include "harness/result/run_report.hpp"

namespace fakehost::report {

result::RunReport SyntheticRun(std::size_t scenarios, std::size_t frames);

}  // namespace fakehost::report

// `fakehost schema check FILE`: certifies a frame schema. Every example validates, every
// counterexample fails at its pointer, and every frame the profile beside the schema and the
// suite under DATA_DIR make the host send validates too.
#pragma once

#include <ostream>
#include <string>

namespace fakehost::cli {

/// Exit code: 0 all hold, 1 a problem, 2 the schema or profile cannot be loaded.
int SchemaCheckCommand(const std::string& data_dir, const std::string& file, std::ostream& out,
                       std::ostream& err);

}  // namespace fakehost::cli

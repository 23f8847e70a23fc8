// The one way this project includes valijson with its RapidJSON adapter.
//
// valijson's RapidJSON adapter, when VALIJSON_USE_EXCEPTIONS is on (the CMake target turns it
// on), defines RAPIDJSON_ASSERT as a function taking a std::string, which makes every RapidJSON
// call ~10x slower and validation ~3.5x slower; whichever header defines it first wins. So:
//   1. harness/json/rapidjson.hpp first: its cheap throwing RAPIDJSON_ASSERT wins everywhere;
//   2. <valijson/exceptions.hpp> next, with exceptions on, so a bad schema throws instead of
//      calling abort() (the header is include-once, so this choice sticks);
//   3. the adapter with VALIJSON_USE_EXCEPTIONS undefined, so it keeps our assert (and does not
//      warn that one is already defined).
// Include this header only in .cpp files: valijson is heavy to compile.
#pragma once

#include "harness/json/rapidjson.hpp"

#include <valijson/exceptions.hpp>

#pragma push_macro("VALIJSON_USE_EXCEPTIONS")
#undef VALIJSON_USE_EXCEPTIONS
#include <valijson/adapters/rapidjson_adapter.hpp>
#pragma pop_macro("VALIJSON_USE_EXCEPTIONS")

#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

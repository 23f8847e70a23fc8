// The one way this project includes RapidJSON.
//
// RapidJSON's default assert aborts, and valijson's RapidJSON adapter (when exceptions are on)
// replaces it with a function taking std::string that makes parsing ~10x slower; whichever
// header comes first wins. Every file includes this header instead of <rapidjson/...>, so all
// of them get one cheap assert that throws std::logic_error (a RapidJSON misuse is our bug).
#pragma once

#include <stdexcept>

#ifndef RAPIDJSON_HAS_STDSTRING
#define RAPIDJSON_HAS_STDSTRING 1
#endif
#ifndef RAPIDJSON_ASSERT
#define RAPIDJSON_ASSERT(x) \
  ((x) ? static_cast<void>(0) : throw std::logic_error("RapidJSON assertion failed: " #x))
#endif

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

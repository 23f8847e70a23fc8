#include "harness/run/sdk_traits.hpp"

#include <algorithm>
#include <filesystem>

#include "harness/json/json.hpp"
#include "harness/json/text_file.hpp"

namespace fs = std::filesystem;

namespace fakehost::run {
namespace {

constexpr int kDirsUp = 8;  // how far above a directory an installed SDK is looked for

std::vector<long long> Numbers(const std::string& version) {
  std::vector<long long> out;
  long long n = -1;
  for (char c : version) {
    if (c >= '0' && c <= '9') {
      n = (n < 0 ? 0 : n) * 10 + (c - '0');
      if (n > 1'000'000'000) return {};
    } else if (c == '.' && n >= 0) {
      out.push_back(n);
      n = -1;
    } else {
      break;  // a pre-release or build suffix: the numbers before it
    }
  }
  if (n >= 0) out.push_back(n);
  return out;
}

std::string Text(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* v = json::Find(object, key);
  return v && v->IsString() ? std::string(json::View(*v)) : std::string();
}

}  // namespace

bool VersionWithin(const std::string& version, const std::string& first, const std::string& last) {
  std::vector<long long> v = Numbers(version), lo = Numbers(first), hi = Numbers(last);
  return !v.empty() && !lo.empty() && !hi.empty() && lo <= v && v <= hi;
}

bool LoadSdkTraits(const std::string& profile_dir, std::vector<SdkTrait>* out, std::string* error) {
  const std::string path = profile_dir + "/sdk-traits.json";
  std::error_code ec;
  if (!fs::exists(path, ec)) return true;
  std::string text;
  if (!json::ReadFileCapped(path, json::kInputFileCap, &text, error)) return false;
  rapidjson::Document doc;
  const rapidjson::Value* sdks = nullptr;
  const rapidjson::Value* traits = nullptr;
  if (json::Parse(text, &doc).ok && doc.IsObject()) {
    sdks = json::Find(doc, "sdks");
    traits = json::Find(doc, "traits");
  }
  if (!sdks || !sdks->IsObject() || !traits || !traits->IsArray()) {
    *error = path + ": not an object of sdks and traits";
    return false;
  }
  for (const rapidjson::Value& t : traits->GetArray()) {
    SdkTrait trait;
    const rapidjson::Value* ids = t.IsObject() ? json::Find(t, "scenarios") : nullptr;
    const rapidjson::Value* range = t.IsObject() ? json::Find(t, "versions") : nullptr;
    if (ids && ids->IsArray())
      for (const rapidjson::Value& id : ids->GetArray())
        if (id.IsString()) trait.scenarios.emplace_back(json::View(id));
    if (t.IsObject()) {
      trait.sdk = Text(t, "sdk");
      trait.does = Text(t, "does");
      trait.author_can = Text(t, "author_can");
    }
    const rapidjson::Value* sdk = trait.sdk.empty() ? nullptr : json::Find(*sdks, trait.sdk);
    if (sdk && sdk->IsObject()) trait.package = Text(*sdk, "npm");
    if (range && range->IsArray() && range->Size() == 2 && (*range)[0].IsString() &&
        (*range)[1].IsString()) {
      trait.first = (*range)[0].GetString();
      trait.last = (*range)[1].GetString();
    }
    if (trait.scenarios.empty() || trait.package.empty() || trait.does.empty() ||
        trait.author_can.empty() || Numbers(trait.first).empty() || Numbers(trait.last).empty()) {
      *error = path + ": trait " + std::to_string(out->size()) +
               " needs scenarios, an sdk listed in sdks (with npm), versions [first, last], "
               "does and author_can";
      return false;
    }
    out->push_back(std::move(trait));
  }
  return true;
}

std::vector<InstalledSdk> FindInstalledSdks(const std::vector<SdkTrait>& traits,
                                            const std::vector<std::string>& dirs) {
  std::vector<InstalledSdk> found;
  for (const SdkTrait& t : traits) {
    if (std::any_of(found.begin(), found.end(), [&](const auto& f) { return f.sdk == t.sdk; }))
      continue;
    for (const std::string& start : dirs) {
      std::error_code ec;
      fs::path dir = fs::absolute(start, ec);
      bool done = false;
      for (int up = 0; up < kDirsUp && !dir.empty() && !done; ++up, dir = dir.parent_path()) {
        fs::path manifest = dir / "node_modules" / t.package / "package.json";
        std::string text, error;
        rapidjson::Document doc;
        if (fs::is_regular_file(manifest, ec) &&
            json::ReadFileCapped(manifest.string(), json::kInputFileCap, &text, &error) &&
            json::Parse(text, &doc).ok && doc.IsObject() && !Text(doc, "version").empty()) {
          found.push_back({t.sdk, Text(doc, "version"), manifest.string()});
          done = true;
        }
        if (dir == dir.root_path()) break;
      }
      if (done) break;
    }
  }
  return found;
}

void ShowSdkTrait(const std::vector<SdkTrait>& traits, const std::vector<InstalledSdk>& installed,
                  result::ScenarioResult* r) {
  if (r->failures.empty() ||
      (r->status != result::Status::kFail && r->status != result::Status::kWarn))
    return;
  for (const SdkTrait& t : traits) {
    if (std::find(t.scenarios.begin(), t.scenarios.end(), r->id) == t.scenarios.end()) continue;
    for (const InstalledSdk& sdk : installed)
      if (sdk.sdk == t.sdk && VersionWithin(sdk.version, t.first, t.last)) {
        r->failures.front().message += " [known trait of " + t.sdk + " " + sdk.version +
                                       ", which this server uses: " + t.does +
                                       ". What you can do: " + t.author_can + "]";
        return;
      }
  }
}

}  // namespace fakehost::run

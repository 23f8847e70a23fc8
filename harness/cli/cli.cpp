#include "harness/cli/cli.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "harness/json/json.hpp"
#include "harness/process/child.hpp"
#include "harness/protocol/profile.hpp"
#include "harness/report/reporter.hpp"
#include "harness/run/runner.hpp"
#include "harness/scenario/interpreter.hpp"
#include "harness/scenario/loader.hpp"
#include "harness/schema/schema.hpp"
#include "harness/session/interrupt.hpp"
#include "harness/session/session.hpp"

#ifndef FAKEHOST_VERSION
#define FAKEHOST_VERSION "0.0.0"
#endif
#ifndef FAKEHOST_DATA_DIR
#define FAKEHOST_DATA_DIR "."
#endif

namespace fakehost::cli {
namespace {

namespace fs = std::filesystem;

/// Where profiles, schemas and suites live: $FAKEHOST_HOME, else the source tree it was built
/// from (the binary is used from a checkout; an install would set FAKEHOST_HOME).
std::string DataDir() {
  if (const char* home = std::getenv("FAKEHOST_HOME"); home && *home) return home;
  return FAKEHOST_DATA_DIR;
}

std::unique_ptr<protocol::Profile> LoadProfile(const std::string& name, std::ostream& err) {
  std::string path = DataDir() + "/schema/" + name + "/profile.json";
  if (!fs::exists(path)) {
    err << "fakehost: unknown protocol '" << name << "' (no " << path << ")\n";
    return nullptr;
  }
  std::string error;
  auto profile = protocol::Profile::Load(path, &error);
  if (!profile) err << "fakehost: " << error << "\n";
  return profile;
}

std::unique_ptr<schema::FrameSchema> LoadFrameSchema(const protocol::Profile& profile,
                                                     std::ostream& err) {
  if (profile.schema_path().empty()) return nullptr;
  std::string error;
  auto s = schema::FrameSchema::Load(profile.schema_path(), &error);
  if (!s) err << "fakehost: " << error << "\n";
  return s;
}

std::string NowIso8601() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

bool ParseDuration(const std::string& text, scenario::Ms* out) {
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  std::string unit = end ? end : "";
  double ms = unit == "ms" ? v : unit == "s" ? v * 1000 : unit == "m" ? v * 60000 : -1;
  if (!std::isfinite(ms) || ms < 1 || ms > 86400000.0) return false;
  *out = scenario::Ms(static_cast<long long>(ms));
  return true;
}

struct RunFlags {
  std::string protocol;
  std::string plugin_dir;
  std::vector<std::string> argv;
  std::string suite;
  std::vector<std::string> only, skip, env, reports;
  std::string out_dir = "reports/latest";
  std::string transcripts_dir;  ///< --transcripts DIR: one JSON-lines file per scenario
  std::string plugin_id;
  std::string timeout;
  int jobs = 0;
  int repeat = 1;
  std::optional<std::int64_t> limit_cpu;     ///< --limit-cpu SECONDS (0: none)
  std::optional<std::int64_t> limit_memory;  ///< --limit-memory MIB (0: none)
  bool strict = false;
  bool no_color = false;
};

int Run(const RunFlags& f, std::ostream& out, std::ostream& err) {
  auto profile = LoadProfile(f.protocol, err);
  if (!profile) return kBadInput;
  auto frame_schema = LoadFrameSchema(*profile, err);
  if (!profile->schema_path().empty() && !frame_schema) return kBadInput;

  std::string suite = f.suite.empty() ? DataDir() + "/scenarios/" + f.protocol : f.suite;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  if (!run::LoadSuite(suite, *profile, &scenarios, &errors)) {
    for (const auto& e : errors) err << e << "\n";
    err << "fakehost: the suite has errors; nothing was run\n";
    return kBadInput;
  }
  auto selected = run::Select(scenarios, f.only, f.skip);
  if (selected.empty()) {
    err << "fakehost: no scenario selected (" << scenarios.size() << " in " << suite
        << "); check --only/--skip\n";
    return kBadInput;
  }

  // Report destinations are checked before anything runs.
  std::vector<std::unique_ptr<report::Reporter>> files;
  files.push_back(report::MakeJsonReporter(f.out_dir + "/report.json"));
  for (const auto& spec : f.reports) {
    auto eq = spec.find('=');
    std::string format = spec.substr(0, eq);
    if (eq == std::string::npos || eq + 1 == spec.size()) {
      err << "fakehost: --report takes FORMAT=PATH, got '" << spec << "'\n";
      return kBadInput;
    }
    std::string error;
    auto reporter = report::MakeFileReporter(format, spec.substr(eq + 1), &error);
    if (!reporter) {
      err << "fakehost: --report " << spec << ": " << error << "\n";
      return kBadInput;
    }
    files.push_back(std::move(reporter));
  }
  if (!f.transcripts_dir.empty())
    files.push_back(report::MakeTranscriptsReporter(f.transcripts_dir));

  run::PluginSpec plugin_spec{f.plugin_dir, f.argv, f.env, f.plugin_id};
  scenario::PluginTarget plugin;
  std::string error;
  if (!run::ResolvePlugin(*profile, plugin_spec, &plugin, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }

  protocol::LimitsSpec limits;
  if (!protocol::ResolveLimits(profile->limits(), f.limit_cpu, f.limit_memory, &limits, &error)) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  plugin.spawn.limits = {limits.cpu_seconds, limits.address_space_bytes};

  run::RunOptions options;
  options.jobs =
      f.jobs > 0 ? f.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  options.repeat = f.repeat;
  options.play.strict = f.strict;
  options.play.interrupted = &session::InterruptFlag();
  if (!f.timeout.empty() && !ParseDuration(f.timeout, &options.play.timeout)) {
    err << "fakehost: --timeout takes a duration like 20s, got '" << f.timeout << "'\n";
    return kBadInput;
  }

  run::RunReport report;
  report.tool_version = FAKEHOST_VERSION;
  report.protocol = profile->name();
  report.protocol_title = profile->title();
  report.suite = suite;
  report.started_at = NowIso8601();
  report.strict = f.strict;
  report.jobs = options.jobs;
  report.plugin = {plugin.id, plugin.version, plugin.dir, plugin.spawn.argv};

  process::InitProcessEnvironment();
  session::InstallInterruptHandlers();

  auto console = report::MakeConsoleReporter(
      out, report::ConsoleOptions{!f.no_color && isatty(STDOUT_FILENO) == 1, 6});
  console->RunStarting(report);
  auto t0 = std::chrono::steady_clock::now();
  report.scenarios =
      run::RunScenarios(selected, *profile, frame_schema.get(), plugin, options,
                        [&](const scenario::ScenarioResult& r) { console->ScenarioEnded(r); });
  // Whatever a plugin left reparented to us (every Child has killed its own enclosure by now)
  // is killed, and every zombie reaped, before the reports claim the run is over.
  process::SweepOrphans();
  report.summary.duration_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  run::Summarise(&report);
  console->RunEnded(report, &error);

  bool written = true;
  for (auto& r : files) {
    if (!r->RunEnded(report, &error)) {
      err << "fakehost: " << error << "\n";
      written = false;
    }
  }
  if (!written || report.summary.errored > 0 || session::InterruptFlag().load())
    return kHarnessError;
  bool failed = report.summary.failed > 0;
  return failed ? kFailures : kOk;
}

int List(const std::string& protocol, const std::string& suite_flag,
         const std::vector<std::string>& only, const std::vector<std::string>& skip,
         std::ostream& out, std::ostream& err) {
  auto profile = LoadProfile(protocol, err);
  if (!profile) return kBadInput;
  std::string suite = suite_flag.empty() ? DataDir() + "/scenarios/" + protocol : suite_flag;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  bool ok = run::LoadSuite(suite, *profile, &scenarios, &errors);
  for (const auto& e : errors) err << e << "\n";
  auto selected = run::Select(scenarios, only, skip);
  for (const auto* s : selected)
    out << s->id << "  [" << scenario::LevelName(s->level) << "] " << s->spec << " — " << s->title
        << "\n";
  if (!ok) return kBadInput;
  if (selected.empty()) {
    err << "fakehost: no scenario selected\n";
    return kBadInput;
  }
  return kOk;
}

// A frame the host builds, and what it should validate as.
struct HostFrameCase {
  std::string label;
  std::string answers;  ///< for a response: the method of the request it answers
  rapidjson::Document frame;
};

rapidjson::Document Message(const rapidjson::Value* id, std::string_view method,
                            const rapidjson::Value* body) {
  rapidjson::Document m;
  m.SetObject();
  auto& a = m.GetAllocator();
  if (id) m.AddMember("id", rapidjson::Value(*id, a), a);
  if (!method.empty())
    m.AddMember("method",
                rapidjson::Value(method.data(), static_cast<rapidjson::SizeType>(method.size()), a),
                a);
  if (body && body->IsObject())
    for (const auto& member : body->GetObject())
      m.AddMember(rapidjson::Value(member.name, a), rapidjson::Value(member.value, a), a);
  return m;
}

// Everything the profile makes the fake host send: the stop sequences' notifications, the
// barrier request, what follows a successful handshake, and its answers to plugin requests.
std::vector<HostFrameCase> ProfileHostFrames(const protocol::Profile& profile) {
  std::vector<HostFrameCase> out;
  auto add = [&](std::string label, std::string answers, rapidjson::Document message) {
    out.push_back(
        {std::move(label), std::move(answers), session::HostFrame(profile, std::move(message))});
  };
  for (const char* name : {"default", "teardown", "after_refusal"})
    if (const auto* seq = profile.StopSequence(name))
      for (const auto& step : *seq)
        if (step.kind == protocol::StopStepSpec::Kind::kWrite)
          add(std::string("stop sequence '") + name + "': " + step.method, "",
              Message(nullptr, step.method, nullptr));
  rapidjson::Value barrier_id(profile.IdsFor(profile.barrier_method()).start);
  add("barrier " + profile.barrier_method(), "",
      Message(&barrier_id, profile.barrier_method(), nullptr));
  if (const rapidjson::Value* after = profile.after_handshake())
    for (const auto& m : json::Find(*after, "send")->GetArray()) {
      rapidjson::Document copy;
      copy.CopyFrom(m, copy.GetAllocator());
      add("after the handshake: " + json::Abbreviate(json::ToCompact(m), 60), "", std::move(copy));
    }
  // Answers go to plugin requests: id 1 stands for the plugin's own id (an integer is an id in
  // every protocol; Flash allows nothing else).
  rapidjson::Value plugin_id(1);
  const rapidjson::Value& host = profile.host();
  if (const rapidjson::Value* replies = json::Find(host, "replies"); replies && replies->IsObject())
    for (const auto& r : replies->GetObject()) {
      if (r.name.GetString()[0] == '$' || json::Find(r.value, "builtin")) continue;
      add(std::string("reply to ") + r.name.GetString(), r.name.GetString(),
          Message(&plugin_id, "", &r.value));
    }
  for (const char* key : {"denied", "rate_limited", "unknown", "unimplemented_granted"})
    if (const rapidjson::Value* t = json::Find(host, key))
      add(std::string("host answer '") + key + "'", "", Message(&plugin_id, "", t));
  return out;
}

// The frames the suite's `send`/`notify` steps build, with the profile's variables and an
// example plugin; steps marked `invalid: true` and steps whose variables only a live run
// knows (${item...} inside for_each, captures) are left out and counted.
std::vector<HostFrameCase> SuiteHostFrames(const protocol::Profile& profile,
                                           std::size_t* unchecked) {
  std::vector<HostFrameCase> out;
  std::vector<scenario::Scenario> scenarios;
  std::vector<std::string> errors;
  run::LoadSuite(DataDir() + "/scenarios/" + profile.name(), profile, &scenarios, &errors);
  rapidjson::Document vars;
  vars.CopyFrom(profile.vars(), vars.GetAllocator());
  rapidjson::Document plugin;
  json::Parse(R"({"id":"dev.example.plugin","version":"1.0.0","dir":"/"})", &plugin);
  vars.AddMember("plugin", rapidjson::Value(plugin, vars.GetAllocator()), vars.GetAllocator());
  auto lookup = [&](std::string_view path) -> const rapidjson::Value* {
    const rapidjson::Value* v = &vars;
    while (v && !path.empty()) {
      std::string_view seg = path.substr(0, path.find('.'));
      path = seg.size() < path.size() ? path.substr(seg.size() + 1) : "";
      v = v->IsObject() ? json::Find(*v, seg) : nullptr;
    }
    return v;
  };
  std::function<void(const scenario::Scenario&, const std::vector<scenario::Step>&)> walk =
      [&](const scenario::Scenario& sc, const std::vector<scenario::Step>& steps) {
        for (const auto& step : steps) {
          if (const auto* each = std::get_if<scenario::ForEach>(&step.body)) {
            walk(sc, each->steps);
            continue;
          }
          const auto* send = std::get_if<scenario::Send>(&step.body);
          if (!send) continue;
          rapidjson::Document message;
          std::string error;
          rapidjson::Value id(profile.IdsFor(send->method).start);
          if (send->invalid || !scenario::BuildSendMessage(*send, lookup, id, &message, &error)) {
            ++*unchecked;
            continue;
          }
          out.push_back({sc.id + " (" + step.loc.ToString().substr(step.loc.file.rfind('/') + 1) +
                             "): " + send->method,
                         "", session::HostFrame(profile, std::move(message))});
        }
      };
  for (const auto& sc : scenarios) walk(sc, sc.steps);
  return out;
}

// The frames the host builds from the profile beside `schema_file` must validate too.
bool CheckHostFrames(const schema::FrameSchema& s, const std::string& schema_file,
                     std::ostream& out, std::ostream& err, bool* bad_input) {
  fs::path profile_path = fs::path(schema_file).parent_path() / "profile.json";
  if (!fs::exists(profile_path)) return true;
  std::string error;
  auto profile = protocol::Profile::Load(profile_path.string(), &error);
  if (!profile) {
    err << "fakehost: " << error << "\n";
    *bad_input = true;
    return false;
  }
  std::vector<HostFrameCase> frames = ProfileHostFrames(*profile);
  std::size_t unchecked = 0;
  std::set<std::string> seen;  // the handshake fragment is in every scenario: check it once
  for (const auto& f : frames) seen.insert(json::ToCompact(f.frame));
  for (auto& f : SuiteHostFrames(*profile, &unchecked))
    if (seen.insert(json::ToCompact(f.frame)).second) frames.push_back(std::move(f));
  std::size_t valid = 0;
  out << "\nhost frames built from " << profile_path.string() << ":\n";
  for (const auto& f : frames) {
    protocol::Classified c = profile->Classify(f.frame);
    std::string method = c.kind == protocol::MessageKind::kResponse ? f.answers : c.method;
    std::string def = schema::RouteDef(s, protocol::MessageKindName(c.kind), method);
    std::vector<schema::Violation> v;
    if (def.empty())
      v.push_back({"", "no schema entry"});
    else
      v = s.Validate(def, f.frame);
    out << "  " << (v.empty() ? "ok  " : "FAIL") << "  " << f.label << " -> " << def << "\n";
    for (const auto& x : v) out << "        " << x.pointer << ": " << x.message << "\n";
    if (v.empty()) ++valid;
  }
  out << frames.size() << " host frames, " << valid << " valid (" << unchecked
      << " suite steps not checked: deliberately invalid, or built only during a run)\n";
  return valid == frames.size();
}

int SchemaCheck(const std::string& file, std::ostream& out, std::ostream& err) {
  std::string error;
  auto s = schema::FrameSchema::Load(file, &error);
  if (!s) {
    err << "fakehost: " << error << "\n";
    return kBadInput;
  }
  std::vector<schema::CheckRow> rows = schema::CheckSchema(*s);
  bool ok = !rows.empty();
  std::size_t width = 10;
  for (const auto& r : rows) width = std::max(width, r.def.size());
  out << "entry" << std::string(width - 5 + 2, ' ') << "examples  counterexamples\n";
  int ex = 0, cex = 0;
  for (const auto& r : rows) {
    bool row_ok = r.problems.empty() && r.passed == r.examples && r.caught == r.counterexamples;
    ok &= row_ok;
    ex += r.examples;
    cex += r.counterexamples;
    out << r.def << std::string(width - r.def.size() + 2, ' ') << r.passed << "/" << r.examples
        << "       " << r.caught << "/" << r.counterexamples << (row_ok ? "" : "   FAIL") << "\n";
    for (const auto& p : r.problems) out << "    " << p << "\n";
  }
  out << rows.size() << " entries, " << ex << " examples, " << cex
      << " counterexamples: " << (ok ? "all hold" : "PROBLEMS") << "\n";
  bool bad_input = false;
  ok &= CheckHostFrames(*s, file, out, err, &bad_input);
  if (bad_input) return kBadInput;
  return ok ? kOk : kFailures;
}

}  // namespace

int Main(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"fakehost: a conformance harness for stdio plugin protocols"};
  app.require_subcommand(1);
  app.set_version_flag("--version", FAKEHOST_VERSION);

  RunFlags rf;
  CLI::App* run = app.add_subcommand("run", "play a suite against a plugin");
  run->add_option("--protocol,-p", rf.protocol, "rim-v1 or flash-v1")->required();
  run->add_option("--plugin", rf.plugin_dir, "plugin directory (with its manifest)");
  run->add_option("argv", rf.argv, "after --: a bare executable and its arguments");
  run->add_option("--suite", rf.suite, "scenario directory (default scenarios/<protocol>)");
  run->add_option("--only", rf.only, "run only scenario ids matching this glob (repeatable)");
  run->add_option("--skip", rf.skip, "skip scenario ids matching this glob (repeatable)");
  run->add_option("--jobs,-j", rf.jobs, "scenarios in parallel (default: cores)");
  run->add_option("--report", rf.reports, "FORMAT=PATH, repeatable (json, junit, markdown, html)");
  run->add_option("--transcripts", rf.transcripts_dir,
                  "DIR: every frame of every scenario, as JSON lines");
  run->add_option("--out", rf.out_dir, "directory for report.json (default reports/latest)");
  run->add_option("--env", rf.env, "KEY=VALUE added to the plugin's environment (repeatable)");
  run->add_option("--plugin-id", rf.plugin_id, "plugin id when running a bare executable");
  run->add_option("--timeout", rf.timeout, "hard limit per scenario (default: the profile's)");
  run->add_option("--repeat", rf.repeat, "play each scenario N times (stability)");
  run->add_option("--limit-cpu", rf.limit_cpu,
                  "CPU seconds per plugin process, 0 for none (default: the profile's)");
  run->add_option("--limit-memory", rf.limit_memory,
                  "address space per plugin process in MiB, 0 for none (default: the profile's)");
  run->add_flag("--strict", rf.strict, "should-level misses fail the run");
  run->add_flag("--no-color", rf.no_color, "no ANSI colours on the console");

  std::string list_protocol, list_suite;
  std::vector<std::string> list_only, list_skip;
  CLI::App* list = app.add_subcommand("list", "list a suite's scenarios");
  list->add_option("--protocol,-p", list_protocol, "rim-v1 or flash-v1")->required();
  list->add_option("--suite", list_suite, "scenario directory");
  list->add_option("--only", list_only, "glob");
  list->add_option("--skip", list_skip, "glob");

  std::string lint_protocol, lint_suite;
  CLI::App* lint = app.add_subcommand("lint", "load a suite and report every error");
  lint->add_option("--protocol,-p", lint_protocol, "rim-v1 or flash-v1")->required();
  lint->add_option("--suite", lint_suite, "scenario directory");

  std::string schema_file;
  CLI::App* schema_cmd = app.add_subcommand("schema", "work with a protocol's frame schema");
  schema_cmd->require_subcommand(1);
  CLI::App* check = schema_cmd->add_subcommand("check", "certify a schema's examples");
  check->add_option("file", schema_file, "the schema file")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    out << app.help();
    return kOk;
  } catch (const CLI::CallForVersion&) {
    out << FAKEHOST_VERSION << "\n";
    return kOk;
  } catch (const CLI::ParseError& e) {
    std::string help = e.get_name() == "CallForHelp" ? "" : "run 'fakehost --help' for usage";
    err << "fakehost: " << e.what() << "\n" << help << "\n";
    return kBadInput;
  }
  try {
    if (run->parsed()) {
      if (rf.plugin_dir.empty() == rf.argv.empty()) {
        err << "fakehost: give exactly one of --plugin DIR and -- ARGV...\n";
        return kBadInput;
      }
      return Run(rf, out, err);
    }
    if (list->parsed()) return List(list_protocol, list_suite, list_only, list_skip, out, err);
    if (lint->parsed()) {
      int rc = List(lint_protocol, lint_suite, {}, {}, out, err);
      if (rc == kOk) out << "no errors\n";
      return rc;
    }
    if (check->parsed()) return SchemaCheck(schema_file, out, err);
  } catch (const std::exception& e) {
    err << "fakehost: internal error: " << e.what() << "\n";
    return kHarnessError;
  }
  return kBadInput;
}

}  // namespace fakehost::cli

// for_each: its steps played once per item of a list, the manifest's or one the plugin returned,
// through the Player's step loop.
#include "harness/interpreter/bindings.hpp"
#include "harness/interpreter/outcome.hpp"
#include "harness/interpreter/player.hpp"
#include "harness/interpreter/step_context.hpp"
#include "harness/interpreter/steps.hpp"
#include "harness/json/json.hpp"

namespace fakehost::interpreter {

bool PlayStep(StepContext& ctx, const ForEach& each) {
  const bool returned = !each.items_var.empty();  // a list the plugin returned, not the manifest's
  const rapidjson::Value* found = returned ? ctx.Lookup(each.items_var)
                                  : ctx.plugin.manifest
                                      ? json::Resolve(*ctx.plugin.manifest, each.items)
                                      : nullptr;
  rapidjson::Document where;
  if (!ctx.Instantiate(each.where, &where)) return false;
  if (returned && (!found || !found->IsArray())) {
    ctx.Checked();
    return ctx.Miss(result::Reason::kWrongContent,
                    "for_each: the captured frame has no list at ${" + each.items_var + "}",
                    "a list", found ? json::Abbreviate(json::ToCompact(*found), 300) : "nothing");
  }
  // A copy: the steps may capture again, and the list must stay as it was when the loop began.
  rapidjson::Document list(rapidjson::kArrayType);
  if (found && found->IsArray()) list.CopyFrom(*found, list.GetAllocator());
  const rapidjson::Value* items = &list;
  std::size_t matched = 0;
  for (const auto& declared : items->GetArray()) {
    // The item as the host reads it: what the manifest leaves out takes its default.
    rapidjson::Document item;
    item.CopyFrom(declared, item.GetAllocator());
    if (each.defaults && item.IsObject())
      for (const auto& d : each.defaults->GetObject())
        if (!json::Find(item, std::string_view(d.name.GetString(), d.name.GetStringLength())))
          item.AddMember(rapidjson::Value(d.name, item.GetAllocator()),
                         rapidjson::Value(d.value, item.GetAllocator()), item.GetAllocator());
    if (each.where && !scenario::Match(where, &item, nullptr)) continue;
    ++matched;
    // How many items there are is the plugin's, not the scenario's: each one gets the whole
    // hard limit again, so a plugin with many commands, each inside its deadline, is not cut
    // short by their number; but never past the profile's ceiling for a whole scenario, so
    // that no number of items keeps one running without end.
    ctx.limit.deadline =
        std::min(std::max(ctx.limit.deadline, Clock::now() + ctx.limit.limit), ctx.limit.ceiling);
    ctx.bindings.SetItem(&item);
    bool go_on = ctx.player.RunSteps(each.steps);
    ctx.bindings.SetItem(nullptr);
    if (!go_on) return false;
  }
  if (matched == 0) {
    // Remembered, and the steps go on: if nothing else checks the plugin, this is why the
    // scenario does not apply to it.
    ctx.outcome.NotApplicable((returned ? "the plugin returned no item in ${" + each.items_var + "}"
                                        : "the manifest declares no item at " + each.items) +
                              (each.where ? " matching " + json::ToCompact(where) : std::string()) +
                              ", so there is nothing for this scenario to check");
  }
  return true;
}

}  // namespace fakehost::interpreter

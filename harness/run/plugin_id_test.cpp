#include "harness/run/plugin_id.hpp"

#include <gtest/gtest.h>

namespace fakehost::run {
namespace {

TEST(DerivePluginId, TakesThePackageAfterARunnerWithoutItsVersion) {
  EXPECT_EQ(DerivePluginId({"npx", "-y", "@modelcontextprotocol/server-everything"}),
            "@modelcontextprotocol/server-everything");
  EXPECT_EQ(DerivePluginId({"/usr/bin/npx", "-y", "@scope/server@1.2.3", "--flag"}),
            "@scope/server");
  EXPECT_EQ(DerivePluginId({"uvx", "mcp-server-git==0.6.2", "--repository", "."}),
            "mcp-server-git");
  EXPECT_EQ(DerivePluginId({"npm", "exec", "--yes", "some-server"}), "some-server");
  EXPECT_EQ(DerivePluginId({"pipx", "run", "a-server"}), "a-server");
}

TEST(DerivePluginId, TakesTheModuleOrScriptAfterAnInterpreter) {
  EXPECT_EQ(DerivePluginId({"python3", "-m", "mcp_server_time", "--local-timezone=UTC"}),
            "mcp_server_time");
  EXPECT_EQ(DerivePluginId({"node", "--no-warnings", "build/index.js"}), "index");
  EXPECT_EQ(DerivePluginId({"uv", "run", "weather.py"}), "weather");
  EXPECT_EQ(DerivePluginId({"python3", "./server.py"}), "server");
}

TEST(DerivePluginId, IsTheProgramsFileNameOtherwise) {
  EXPECT_EQ(DerivePluginId({"/opt/servers/github-mcp-server", "stdio"}), "github-mcp-server");
  EXPECT_EQ(DerivePluginId({"./server"}), "server");
  // A launcher with nothing to launch is only a program.
  EXPECT_EQ(DerivePluginId({"npx"}), "npx");
  EXPECT_EQ(DerivePluginId({"node", "--version"}), "node");
  EXPECT_EQ(DerivePluginId({}), "");
}

TEST(DerivePluginId, SaysWhichArgumentTheIdCameFrom) {
  std::size_t word = 99;
  DerivePluginId({"npx", "-y", "pkg"}, &word);
  EXPECT_EQ(word, 2u);
  DerivePluginId({"python3", "-m", "mod"}, &word);
  EXPECT_EQ(word, 2u);
  DerivePluginId({"./server", "--stdio"}, &word);
  EXPECT_EQ(word, 0u);
}

}  // namespace
}  // namespace fakehost::run

# Sourced by ci/build and ci/sanitize: the CMake options every build folder of theirs shares.
# fakehost_cmake_options DIR appends to the array `options`:
#   - Ninja for a new folder where it is present (ci/setup installs it): it compiles a library's
#     objects while the libraries it links are still building, where make waits for them (the
#     sanitizer build on 2 cores: 270 s with Ninja, 485 s with make). A folder keeps the
#     generator it was configured with.
#   - ccache as the compiler launcher where it is present (a developer's machine; CI machines
#     start empty, where a cache only costs). Objects built with a precompiled header are cached
#     only when ccache is told these are safe, and paths inside the checkout are hashed relative
#     to it, so that every clone shares one cache.
fakehost_cmake_options() {
  local dir=$1
  if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then options+=(-G Ninja); fi
  if command -v ccache >/dev/null; then
    export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
    export CCACHE_BASEDIR="$PWD"
    options+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
}

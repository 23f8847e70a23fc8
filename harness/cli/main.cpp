#include <iostream>

#include "harness/cli/cli.hpp"

int main(int argc, char** argv) { return fakehost::cli::Main(argc, argv, std::cout, std::cerr); }

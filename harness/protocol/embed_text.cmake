# cmake -DIN=file -DOUT=file.cpp -DNAMESPACE=ns -DFUNCTION=Name -P embed_text.cmake
# Writes a C++ file defining `std::string_view ns::Name()` that returns IN's bytes, each as a \x
# escape, in string literals of 8000 bytes each (compilers bound one literal's length).
file(READ "${IN}" text HEX)
string(LENGTH "${text}" hex_length)
set(body "")
set(at 0)
while(at LESS hex_length)
  string(SUBSTRING "${text}" ${at} 16000 chunk)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" chunk "${chunk}")
  string(APPEND body "    \"${chunk}\"\n")
  math(EXPR at "${at} + 16000")
endwhile()
math(EXPR size "${hex_length} / 2")
file(WRITE "${OUT}"
  "// Generated from ${IN} by embed_text.cmake: do not edit.\n"
  "#include <string_view>\n\n"
  "namespace ${NAMESPACE} {\n\n"
  "std::string_view ${FUNCTION}() {\n"
  "  static constexpr char kText[] =\n${body};\n"
  "  return std::string_view(kText, ${size});\n"
  "}\n\n"
  "}  // namespace ${NAMESPACE}\n")

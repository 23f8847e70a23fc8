// The certification matrix written out: JSON (schema/certify.schema.json, also read back for
// --since and `certify merge`), self-contained HTML, Markdown, JUnit (a <testsuite> per
// plugin) and the console summary. Every string that came from a plugin or a corpus is made
// safe by the format's own escaping (report/text.hpp, report/xml_writer.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/certify/matrix.hpp"

namespace fakehost::certify {

std::string JsonMatrix(const Matrix& m);
/// Reads a matrix JsonMatrix wrote. False with "<name>: <what>" for anything else.
bool ParseJsonMatrix(std::string_view text, const std::string& name, Matrix* out,
                     std::string* error);
bool ReadJsonMatrix(const std::string& path, Matrix* out, std::string* error);

/// One HTML file: the matrix (columns sortable by a click on their header; every cell that is
/// not a pass links to its detail further down the page), the --since changes and the frames
/// the candidate schema rejects. Inline CSS and script; nothing fetched.
std::string HtmlMatrix(const Matrix& m);
std::string MarkdownMatrix(const Matrix& m);
/// Surefire JUnit: one <testsuite> per plugin, a <testcase> per scenario.
std::string JUnitMatrix(const Matrix& m);
/// For the terminal: a line per plugin that is not passing, the changes, the candidate's
/// rejections, totals. Plugin text goes through TerminalSafe.
std::string ConsoleSummary(const Matrix& m);
/// One line for a finished row, as it finishes.
std::string ConsoleRow(const Row& row);

/// A format `certify --report FORMAT=PATH` takes: the one table of them (matrix_text.cpp), from
/// which the help texts, the parser and its message come.
struct MatrixFormat {
  std::string_view name;    ///< FORMAT
  std::string_view writes;  ///< what the file holds, for help texts
  std::string (*write)(const Matrix& m);
};
/// Every format, in the order help texts list them: json, junit, markdown, html.
const std::vector<MatrixFormat>& MatrixFormats();
/// Their names, "json, junit, markdown, html".
std::string MatrixFormatNames();
/// True for a MatrixFormats name.
bool KnownFormat(std::string_view format);
/// Writes `m` in `format` to `path` (atomically). False with `*error`.
bool WriteMatrix(std::string_view format, const std::string& path, const Matrix& m,
                 std::string* error);

}  // namespace fakehost::certify

// The HTML report's inline stylesheet and script (html_assets.cpp). Static text, never data:
// the script reads the results from the page's <script type="application/json"> element.
#pragma once

#include <string_view>

namespace fakehost::report {

std::string_view HtmlStyle();
std::string_view HtmlScript();

}  // namespace fakehost::report

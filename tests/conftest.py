"""Shared by every test file: a closing line that says when the browser tests did not run.

The web page's browser tests (test_web_browser.py) need Chromium (Debian's ``chromium``
package) and Playwright; on a machine without them they skip, and a quiet skip in a long run is
easy to miss, so the summary says it in a line of its own.
"""

from __future__ import annotations


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "test_web_browser" in str(r.nodeid or r.location)]
    if skipped:
        reason = str(skipped[0].longrepr[-1]) if isinstance(skipped[0].longrepr, tuple) else ""
        terminalreporter.write_line(f"the web page's browser tests (tests/test_web_browser.py) did NOT RUN: {reason}",
                                    yellow=True, bold=True)

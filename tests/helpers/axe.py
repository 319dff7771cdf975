"""axe-core's accessibility checks on a page."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[1] / "browser" / "vendor" / "axe-core" / "axe.min.js"


BLOCKING = ("serious", "critical")


RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}"""


@cache
def axe_source() -> str:
    """axe-core's script, read once."""
    return AXE.read_text(encoding="utf-8")


def blocking_violations(page: Page) -> list[dict[str, object]]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    # evaluated through the devtools protocol: the app's Content-Security-Policy rightly refuses injected scripts
    page.evaluate(axe_source())
    found = page.evaluate(RUN_AXE)
    assert isinstance(found, list)
    return [v for v in found if v["impact"] in BLOCKING]


def assert_accessible(page: Page, what: str) -> None:
    """Fail with axe-core's rule, help text and first targets for each blocking violation."""
    violations = blocking_violations(page)
    assert not violations, f"{what}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['targets']}" for v in violations
    )

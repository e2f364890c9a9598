//! The replay page in a real browser (Debian's chromium under chromedriver): Casella's game
//! stepped to its cycle, the record played to its end, a bad deal's message beside the field.
//! Screenshots of each step go to `target/browser/`.
//!
//! Without chromedriver the test says so and passes, unless `BMN_REQUIRE_BROWSER=1` (set by
//! `.ci/run`, which installs chromium and chromium-driver).

mod common;

use std::path::PathBuf;

use common::webdriver::{Browser, chromedriver};
use common::{enc, server};

const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";
const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";

fn shots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser")
}

#[test]
fn the_page_replays_games_in_a_real_browser() {
    let Some(driver) = chromedriver() else {
        assert!(
            std::env::var("BMN_REQUIRE_BROWSER").is_err(),
            "BMN_REQUIRE_BROWSER is set but chromedriver is not installed"
        );
        eprintln!(
            "note: no chromedriver here: the browser test did not run (apt-get install chromium chromium-driver)"
        );
        return;
    };
    let browser = Browser::start(&driver);
    let page = format!("http://{}/", server());

    // Casella's deal from a link: step to the cycle's start.
    browser.goto(&format!("{page}?deal={}&leader=1", enc(CASELLA)));
    browser.wait_text("#summary", "the game never ends");
    // Every violation of the page's Content-Security-Policy from here on is kept, and the
    // page's own style sheet and script loaded under it.
    browser.run(
        "window.cspViolations = []; document.addEventListener('securitypolicyviolation', \
         (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
    );
    assert_eq!(browser.run("return document.styleSheets.length;"), 1);
    browser.click("#to-cycle");
    let at = browser.wait_text("#cycle-info", "preperiod 4 tricks, 34 cards");
    assert!(at.contains("at the cycle's start"), "{at}");
    let counters = browser.text("#counters");
    assert!(
        counters.starts_with("34 cards laid, 4 tricks taken"),
        "{counters}"
    );
    browser.screenshot(&shots().join("1-casella-cycle-start.png"));

    // One card further: the first card of the period is laid.
    browser.click("#fwd-card");
    browser.wait_text("#counters", "35 cards laid, 4 tricks taken");

    // The basin: drawn, with its balanced deals; clicking one loads it.
    browser.click("#basin-load");
    browser.wait_text("#basin-info", "5340 positions; 30 balanced starting deals");
    browser.screenshot(&shots().join("2-casella-basin.png"));
    browser.click_any("#basin circle[fill='#2e8b57']");
    browser.wait_text("#summary", "the game never ends");
    browser.wait_text("#summary", "period 62 tricks, 440 cards");

    // The record: typed in, played, jumped to the end.
    browser.type_into("#deal", RECORD);
    browser.click("#play");
    browser.wait_text("#summary", "player 2 wins after 8344 cards and 1164 tricks");
    browser.click("#to-end");
    browser.wait_text("#status", "player 2 wins after 8344 cards and 1164 tricks");
    browser.wait_text("#counters", "8344 cards laid, 1164 tricks taken");
    browser.screenshot(&shots().join("3-record-end.png"));
    // Back one trick, then a click on the chart's left edge goes back to the start.
    browser.click("#back-trick");
    browser.wait_text("#counters", "1163 tricks taken");

    // A bad deal: the CLI's message beside the field, the game left as it was.
    browser.type_into("#deal", "--Z-/J-");
    browser.click("#play");
    browser.wait_text(
        "#error",
        "bad deal: unexpected character 'Z' at position 3 (hand 1)",
    );
    browser.screenshot(&shots().join("4-bad-deal.png"));

    // The records table replays a record with one click.
    browser.click("#records tbody tr:first-child button");
    browser.wait_text("#summary", "player 1 wins after 4791 cards and 670 tricks");
    assert_eq!(browser.text("#error"), "");

    // A short search from the page: live progress, then its longest games, each replayable.
    browser.type_into("#search-seconds", "2");
    browser.click("#search-start");
    browser.wait_text("#search-progress", "games in");
    browser.screenshot(&shots().join("5-search.png"));
    browser.click("#search-results tbody tr:first-child button");
    browser.wait_text("#summary", "wins after");

    // Nothing the page did broke its policy; and the policy holds: markup injected with an
    // inline handler (what an unescaped answer would be) does not run.
    assert_eq!(
        browser.run("return window.cspViolations;"),
        serde_json::json!([])
    );
    browser.run(
        "document.body.insertAdjacentHTML('beforeend', \
         '<img id=\"xss\" src=\"data:,\" onerror=\"window.pwned = 1\">');",
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert_eq!(browser.run("return window.pwned === undefined;"), true);
    let violations = browser.run("return window.cspViolations;");
    assert!(
        violations.to_string().contains("script-src"),
        "the inline handler was not reported: {violations}"
    );
}

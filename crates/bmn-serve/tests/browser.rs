//! The replay page in a real browser (Debian's chromium under chromedriver): Casella's game
//! stepped to its cycle, the record played to its end, a bad deal's message beside the field;
//! the atlas of endless games: Camicia's cycles, one opened, a deal replayed to its cycle's
//! start by its number, a table downloaded as CSV and read back. Screenshots of each step go to
//! `target/browser/`.
//!
//! Without chromedriver the test says so and passes, unless `BMN_REQUIRE_BROWSER=1` (set by
//! `.ci/run`, which installs chromium and chromium-driver).

mod common;

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use common::webdriver::{Browser, chromedriver};
use common::{enc, server};

const CASELLA: &str = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA";
const RECORD: &str = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---";

fn shots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/browser")
}

/// One browser at a time: this machine may have two cores.
static ONE_BROWSER: Mutex<()> = Mutex::new(());

/// The browser, held by this test alone, and the page's address; `None` (and a note) where
/// this machine has no chromedriver.
fn open_page() -> Option<(MutexGuard<'static, ()>, Browser, String)> {
    let one = ONE_BROWSER.lock().unwrap_or_else(|e| e.into_inner());
    let browser = browser()?;
    Some((one, browser, format!("http://{}/", server())))
}

/// A browser, or `None` (and a note) where this machine has no chromedriver.
fn browser() -> Option<Browser> {
    let Some(driver) = chromedriver() else {
        assert!(
            std::env::var("BMN_REQUIRE_BROWSER").is_err(),
            "BMN_REQUIRE_BROWSER is set but chromedriver is not installed"
        );
        eprintln!(
            "note: no chromedriver here: the browser test did not run (apt-get install chromium chromium-driver)"
        );
        return None;
    };
    Some(Browser::start(&driver))
}

/// Keeps every violation of the page's Content-Security-Policy from here on.
fn watch_policy(browser: &Browser) {
    browser.run(
        "window.cspViolations = []; document.addEventListener('securitypolicyviolation', \
         (e) => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));",
    );
}

#[test]
fn the_page_replays_games_in_a_real_browser() {
    let Some((_one, browser, page)) = open_page() else {
        return;
    };

    // Casella's deal from a link: step to the cycle's start.
    browser.goto(&format!("{page}?deal={}&leader=1", enc(CASELLA)));
    browser.wait_text("#summary", "the game never ends");
    // Every violation of the page's Content-Security-Policy from here on is kept, and the
    // page's own style sheet and script loaded under it.
    watch_policy(&browser);
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

    // A bad deal: the CLI's message beside the field, and the last game taken away (it is
    // not this deal's).
    browser.type_into("#deal", "--Z-/J-");
    browser.click("#play");
    browser.wait_text(
        "#error",
        "bad deal: unexpected character 'Z' at position 3 (hand 1)",
    );
    assert_eq!(
        browser.run("return document.getElementById('game-panel').hidden;"),
        true
    );
    browser.screenshot(&shots().join("4-bad-deal.png"));
    // An empty box plays the game its grey placeholder shows (the record), and takes it.
    browser.type_into("#deal", "");
    browser.click("#play");
    browser.wait_text("#summary", "player 2 wins after 8344 cards and 1164 tricks");
    assert_eq!(
        browser.run("return document.getElementById('deal').value;"),
        serde_json::json!(RECORD)
    );

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

#[test]
fn the_atlas_shows_camicias_cycles_in_a_real_browser() {
    let Some((_one, browser, page)) = open_page() else {
        return;
    };
    browser.goto(&page);
    watch_policy(&browser);

    // Camicia's census is the first table: six cycles and their 18 deals, set beside the
    // published enumeration of every deal.
    browser.wait_text(
        "#atlas-info",
        "6 cycles, 18 balanced deals with player 1 leading",
    );
    let published = browser.text("#atlas-published");
    assert!(
        published.contains("162 of 193,584,473,082,000 never end, on 9 cycles")
            && published.contains("33 tricks: 6 cycles, 18 deals (here 18)")
            && published.contains("84 tricks: 1 cycle, 90 deals (here 0)"),
        "{published}"
    );
    // In the graph's order, shortest period first.
    let at = |p: &str| published.find(p).unwrap();
    assert!(
        at("20 tricks:") < at("33 tricks:")
            && at("33 tricks:") < at("36 tricks:")
            && at("36 tricks:") < at("84 tricks:"),
        "{published}"
    );
    assert_eq!(
        browser.run("return document.querySelectorAll('#atlas-graph circle[data-i]').length;"),
        6
    );
    // The three cycles of other periods that the enumeration found, drawn hollow.
    assert_eq!(
        browser.run("return document.querySelectorAll('#atlas-graph circle.missing').length;"),
        3
    );

    // A cycle opened: its basin drawn and its four deals listed with their ranks.
    browser.click("#atlas-cycles tbody tr:first-child button");
    browser.wait_text(
        "#cycle-title",
        "Cycle 1f4d09da6d0222f6: period 33 tricks, 233 cards",
    );
    browser.wait_text("#cycle-about", "basin 2134 positions; 4 balanced deals");
    // Its class (docs/census.md), in the table and in the cycle's line.
    browser.wait_text("#cycle-about", "class: min hand 2, splits at rest states");
    assert_eq!(
        browser.run(
            "return document.querySelector('#atlas-cycles tbody tr:first-child td:nth-child(6)').textContent;"
        ),
        "min hand 2, splits at rest states"
    );
    browser.screenshot_of("#atlas-panel", &shots().join("6-atlas-camicia.png"));
    let ranks = browser.run(
        "return [...document.querySelectorAll('#cycle-deals a.rank-link')].map(a => a.textContent);",
    );
    assert_eq!(
        ranks,
        serde_json::json!([
            "#649797222495",
            "#1137104982315",
            "#36508485943319",
            "#36518159479683"
        ])
    );

    // One of its deals replayed in the table, to its cycle's start; the replay shows its rank.
    browser.click("#cycle-deals tbody tr:first-child button");
    browser.wait_text(
        "#summary",
        "preperiod 4 tricks, 23 cards; period 33 tricks, 233 cards (cycle 1f4d09da6d0222f6)",
    );
    browser.wait_text(
        "#rank",
        "deal #649797222495 of the deck 4J,4Q,4K,28- (2 players, player 1 leads)",
    );
    browser.click("#to-cycle");
    browser.wait_text(
        "#cycle-info",
        "at the cycle's start: preperiod 4 tricks, 23 cards",
    );
    // The same deal by its number: the rank's link puts `#K` in the deal box.
    browser.click("#rank a");
    browser.wait_text("#summary", "(cycle 1f4d09da6d0222f6)");
    assert_eq!(
        browser.run(
            "return [document.getElementById('deal').value, document.getElementById('deck').value];"
        ),
        serde_json::json!(["#649797222495", "4J,4Q,4K,28-"])
    );

    // The cycle's deals downloaded as CSV and read back.
    browser.click("#cycle-downloads a.download-csv");
    let csv = browser.downloaded("cycle-1f4d09da6d0222f6-deals.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "rank,deal,leader,preperiod_tricks,preperiod_cards,renamed"
    );
    assert_eq!(
        lines[1],
        "649797222495,------------J--K-K--/---Q-Q-JQ-K-Q-KJ--J-,1,4,23,false"
    );
    assert_eq!(lines.len(), 5, "{csv}");
    // And the catalogue itself, whose JSON is the file with its own keys.
    browser.click("#atlas-downloads a.download-json");
    let file: serde_json::Value =
        serde_json::from_str(&browser.downloaded("catalogue-census-camicia.json")).unwrap();
    assert_eq!(file["balanced_deals"], 18);
    assert_eq!(file["catalogue"].as_array().unwrap().len(), 6);

    // A factory catalogue (counts only): a cycle's deals come from its basin, ranked.
    browser.run(
        "const s = document.getElementById('atlas-table'); s.value = 'paulhus-6'; \
         s.dispatchEvent(new Event('change'));",
    );
    browser.wait_text("#atlas-info", "18 cycles, 1260 balanced deals");
    browser.click_any("#atlas-graph circle[data-i]");
    browser.wait_text("#cycle-about", "balanced deals with player 1 leading");
    let (rows, ranked) = (
        browser.run("return document.querySelectorAll('#cycle-deals tbody tr').length;"),
        browser.run("return document.querySelectorAll('#cycle-deals a.rank-link').length;"),
    );
    assert_eq!(rows, ranked);
    assert!(rows.as_u64().unwrap() > 0);
    browser.screenshot_of("#atlas-panel", &shots().join("7-atlas-paulhus-6.png"));

    // The road to Camicia: a family's rows one after another (◀ and ▶), zero-cycle rows too.
    browser.run(
        "const s = document.getElementById('atlas-table'); s.value = '3j3q3k-19'; \
         s.dispatchEvent(new Event('change'));",
    );
    browser.wait_text("#atlas-info", "3J,3Q,3K,19-");
    // Said as the previous and next rows, so that neither reads as this row's n.
    browser.wait_text("#atlas-next", "next: n = 20 ▶");
    browser.wait_text("#atlas-prev", "◀ previous: n = 18");
    browser.click("#atlas-next");
    browser.wait_text("#atlas-info", "3J,3Q,3K,20-, 2 players");
    browser.wait_text("#atlas-info", "2 cycles, 135 balanced deals");
    browser.click("#atlas-prev");
    browser.wait_text("#atlas-info", "3J,3Q,3K,19-, 2 players");
    browser.click("#atlas-prev");
    browser.wait_text("#atlas-info", "3J,3Q,3K,18-");
    assert_eq!(
        browser.run(
            "return document.querySelector('#atlas-table option[value=\"3j3q3k-18\"]').parentElement.label;"
        ),
        serde_json::json!("The road to Camicia: 3J,3Q,3K,n-")
    );

    assert_eq!(
        browser.run("return window.cspViolations;"),
        serde_json::json!([])
    );
}

/// Width of the page and of the window, and the left scroll: a page that fits has the first
/// no larger than the second and the third zero.
fn widths(browser: &Browser) -> (f64, f64, f64) {
    let v = browser
        .run("return [document.documentElement.scrollWidth, window.innerWidth, window.scrollX];");
    let n = |i: usize| v[i].as_f64().unwrap();
    (n(0), n(1), n(2))
}

/// The page on a 390x844 phone and a 1280x800 desktop: no sideways scroll with a game, the
/// atlas, a cycle and a basin open (tables scroll in their own box), graph captions at least
/// 10 px tall, deals on one line, and after a `#K` link the view at the left edge.
#[test]
fn the_page_fits_a_phone_and_a_desktop() {
    let Some((_one, browser, page)) = open_page() else {
        return;
    };
    for (width, height, name) in [(390, 844, "phone"), (1280, 800, "desktop")] {
        browser.resize(width, height);
        browser.goto(&format!("{page}?deal={}", enc(CASELLA)));
        watch_policy(&browser);
        browser.wait_text("#summary", "the game never ends");
        browser.click("#basin-load");
        browser.wait_text("#basin-info", "30 balanced starting deals");
        browser.wait_text("#atlas-info", "6 cycles");
        browser.click("#atlas-cycles tbody tr:first-child button");
        browser.wait_text("#cycle-about", "4 balanced deals");
        let (page_width, window, _) = widths(&browser);
        assert!(
            page_width <= window && (window - f64::from(width)).abs() < 20.0,
            "{name}: the page is {page_width} px wide in a {window} px window"
        );
        let caption = browser.run(
            "return Math.min(...[...document.querySelectorAll('#atlas-graph text')]\
             .map(t => t.getBoundingClientRect().height));",
        );
        assert!(
            caption.as_f64().unwrap() >= 10.0,
            "{name}: captions {caption} px tall"
        );
        let one_line = browser.run(
            "return [...document.querySelectorAll('td.deal')].every(td => { \
             const r = document.createRange(); r.selectNodeContents(td); \
             return r.getClientRects().length <= 1; });",
        );
        assert_eq!(one_line, true, "{name}: a deal wraps");
        let select = browser
            .run("return document.getElementById('atlas-table').getBoundingClientRect().right;");
        assert!(select.as_f64().unwrap() <= window, "{name}: {select}");
        browser.screenshot(&shots().join(format!("7-{name}-top.png")));
        browser.screenshot_of("#atlas-panel", &shots().join(format!("8-{name}-atlas.png")));
        // A deal's `#K` link replays it at the top, the view at the left edge.
        browser.click("#cycle-deals tbody tr:first-child a.rank-link");
        browser.wait_text("#rank", "deal #649797222495 of the deck 4J,4Q,4K,28-");
        let (page_width, window, scroll_x) = widths(&browser);
        assert!(page_width <= window && scroll_x == 0.0, "{name}");
        assert_eq!(
            browser.run("return window.cspViolations;"),
            serde_json::json!([])
        );
    }
    browser.resize(1280, 1500);
}

/// A node of the basin graph is one click target: a balanced deal and its twin with player 2
/// leading (the same cards, a pixel apart) are one node, and a click on it asks which to play.
/// Every graph has a legend, every panel a line saying what it shows, and the words are in a
/// glossary the page links to.
#[test]
fn the_page_explains_itself_and_each_node_is_one_target() {
    let Some((_one, browser, page)) = open_page() else {
        return;
    };
    browser.goto(&format!("{page}?deal={}", enc(CASELLA)));
    watch_policy(&browser);
    browser.wait_text("#summary", "the game never ends");
    browser.click("#basin-load");
    browser.wait_text("#basin-info", "30 balanced starting deals");
    let twins = browser.run("return document.querySelectorAll('#basin circle.twin').length;");
    assert!(twins.as_u64().unwrap() > 0, "{twins}");
    // Every position is in exactly one node.
    let positions = browser.run(
        "return [...document.querySelectorAll('#basin circle')].reduce((s, c) => s + Number(c.dataset.members), 0);",
    );
    assert_eq!(positions, 5340);
    browser.click_any("#basin circle.twin[fill='#2e8b57']");
    browser.wait_text(
        "#basin-choice",
        "One game, 2 positions (the players renamed)",
    );
    let deal = browser.run(
        "return document.querySelector(\"#basin-choice button[data-leader='2']\").dataset.deal;",
    );
    browser.click("#basin-choice button[data-leader='2']");
    browser.wait_text("#summary", "the game never ends");
    assert_eq!(
        browser.run("return [document.getElementById('deal').value, document.getElementById('leader').value];"),
        serde_json::json!([deal, "2"])
    );

    // Legends: the chart's players and marks, both basins' colours, the atlas's circles.
    let legend = browser.text("#chart-legend");
    assert!(
        legend.contains("player 1")
            && legend.contains("player 2")
            && legend.contains("the cycle's start"),
        "{legend}"
    );
    assert_eq!(
        browser.run("return document.querySelectorAll('.basin-legend').length;"),
        2
    );
    assert_eq!(
        browser.run(
            "return [...document.querySelectorAll('.panel')].filter(p => p.id !== 'glossary' \
             && !p.querySelector('.about')).map(p => p.id);"
        ),
        serde_json::json!([])
    );
    let glossary = browser.run(
        "return [document.querySelectorAll('a[href=\"#glossary\"]').length, \
         [...document.querySelectorAll('#glossary dt')].map(d => d.textContent).join('|')];",
    );
    assert!(glossary[0].as_u64().unwrap() >= 3, "{glossary}");
    for word in [
        "basin",
        "preperiod",
        "census",
        "factory",
        "found by",
        "family",
        "class",
    ] {
        assert!(
            glossary[1].as_str().unwrap().contains(word),
            "{word}: {glossary}"
        );
    }

    // Words: one label each, one trick and one card in the singular.
    let labels = browser.run(
        "return [...document.querySelectorAll('#deal-form label')].map(l => l.firstChild.textContent.trim());",
    );
    assert!(
        labels
            .as_array()
            .unwrap()
            .iter()
            .all(|l| !l.as_str().unwrap().contains("check")),
        "{labels}"
    );
    browser.goto(&format!(
        "{page}?deal={}&deck={}",
        enc("------K-J-/-J--K-Q-Q-"),
        enc("2J,2Q,2K,14-")
    ));
    watch_policy(&browser);
    browser.wait_text("#summary", "preperiod 1 trick, 5 cards; period 10 tricks");
    browser.click("#fwd-card");
    browser.wait_text("#counters", "1 card laid, 0 tricks taken (step 1 of");
    assert_eq!(
        browser.run("return window.cspViolations;"),
        serde_json::json!([])
    );
}

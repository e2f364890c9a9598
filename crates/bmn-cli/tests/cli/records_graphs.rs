//! `bmn records` against the golden file, and the DOT graphs of `bmn play --dot` and
//! `bmn basin --dot` parsed back by a DOT parser.

use crate::common::{bad, json, ok};
use graphviz_rust::dot_structures::{Edge, EdgeTy, Graph, Stmt, Vertex};

#[test]
fn records_verify_against_the_golden_file() {
    let v = json(&["records", "--verify", "--json"]);
    assert_eq!(v["all_verified"], true);
    let records = v["records"].as_array().unwrap();
    let golden = bmn_golden::load();
    assert_eq!(records.len(), golden.records.len());
    for (r, g) in records.iter().zip(&golden.records) {
        assert_eq!(r["deal"], g.deal.as_str());
        assert_eq!(r["cards"], g.cards);
        assert_eq!(r["tricks"], g.tricks);
        assert_eq!(r["replayed"]["cards"], g.cards, "{}", g.name);
        assert_eq!(r["replayed"]["winner"], g.winner);
        assert!(r["year"].as_u64().unwrap() >= 1999);
    }
    let dir = crate::common::scratch("records");
    let plot = dir.join("records.svg");
    let text = ok(&["records", "--plot", plot.to_str().unwrap()]);
    assert!(text.contains("9 records, every one replayed"), "{text}");
    assert!(std::fs::metadata(&plot).unwrap().len() > 1000);
    bad(&["records", "--plot", "x.txt"], ".svg or .png");
}

/// Parses DOT text: (node ids, edges as (from, to)).
fn parse(dot: &str) -> (Vec<String>, Vec<(String, String)>) {
    let graph = graphviz_rust::parse(dot).expect("bmn writes DOT a parser reads");
    let Graph::DiGraph { stmts, .. } = graph else {
        panic!("a digraph");
    };
    let (mut nodes, mut edges) = (Vec::new(), Vec::new());
    for s in stmts {
        match s {
            Stmt::Node(n) => nodes.push(n.id.0.to_string()),
            Stmt::Edge(Edge {
                ty: EdgeTy::Pair(Vertex::N(a), Vertex::N(b)),
                ..
            }) => edges.push((a.0.to_string(), b.0.to_string())),
            _ => {}
        }
    }
    (nodes, edges)
}

fn dot_of(args: &[&str]) -> String {
    let name = args.join("_").replace('/', "_");
    // The folder lives (and is removed) with this call.
    let dir = crate::common::scratch(&format!("dot-{name}"));
    let file = dir.join("graph.dot");
    let mut all = args.to_vec();
    all.extend(["--dot", file.to_str().unwrap()]);
    ok(&all);
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn a_game_is_a_path_and_a_cycle_closes() {
    // A finishing game: one node per position, one edge per trick.
    let dot = dot_of(&["play", "--K---A----AAJ-/J-", "--tricks", "5"]);
    let (nodes, edges) = parse(&dot);
    assert_eq!(nodes.len(), 6);
    assert_eq!(edges.len(), 5);
    // The 10-card cycle: 3 positions on the cycle, every one red, the last edge closing it.
    let dot = dot_of(&["play", "--Q-J-/Q-J-"]);
    let (nodes, edges) = parse(&dot);
    assert_eq!((nodes.len(), edges.len()), (3, 3));
    assert_eq!(dot.matches("color=red").count(), 3);
}

#[test]
fn a_basin_graph_has_every_position_and_its_trick() {
    // Paulhus's n = 16 cycle (Table 2): 1134 positions, each with its one trick forward.
    let dot = dot_of(&["basin", "--A-KJ-/--A----Q----KQ-J-"]);
    let (nodes, edges) = parse(&dot);
    assert_eq!(nodes.len(), 1134);
    assert_eq!(
        edges.len(),
        1134,
        "every position of a cycle's basin has its successor in it"
    );
    // The cycle in both namings (11 + 11) in red; the balanced deals filled.
    assert_eq!(dot.matches("color=red").count(), 22);
    assert!(dot.contains("palegreen"));
}

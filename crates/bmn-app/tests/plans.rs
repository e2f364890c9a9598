//! Every request is validated once into a typed plan (`TryFrom<&Request>`), where every check
//! and default is: these tests call bmn-app directly, without the binary.

use bmn_app::walk::WalkArgs;
use std::time::Duration;

use bmn_app::backward::{TreesPlan, TreesRequest};
use bmn_app::bench::{BenchPlan, BenchRequest};
use bmn_app::census::{CensusPlan, CensusRequest};
use bmn_app::climb::{ClimbPlan, ClimbRequest};
use bmn_app::exhaustive::{ExhaustivePlan, ExhaustiveRequest};
use bmn_app::factory::{FactoryPlan, FactoryRequest};
use bmn_app::flags::{DeckArg, LeaderArg, PlayersArg};
use bmn_app::input::{EngineInput, TableInput, TimeArg};
use bmn_app::odds::{OddsPlan, OddsRequest};
use bmn_app::pieces::{ConstructPlan, ConstructRequest};
use bmn_app::play::{PlayPlan, PlayRequest};
use bmn_app::search::{SearchPlan, SearchRequest};
use bmn_app::stats::{StatsPlan, StatsRequest};
use bmn_run::Shard;

fn error<T: std::fmt::Debug>(r: bmn_app::Result<T>) -> String {
    r.expect_err("the request is refused").to_string()
}

#[test]
fn an_empty_request_asks_for_the_plans_default() {
    // The defaults are the modules' constants, and the machine is read when the plan is made:
    // every core, the fastest kernel this CPU runs.
    let engine = bmn_app::input::EngineDefaults::DEALS.fastest();
    let plan = SearchPlan::try_from(&SearchRequest::default()).unwrap();
    assert_eq!(plan.stream.games, Some(bmn_app::search::DEFAULT_GAMES));
    assert_eq!(plan.stream.time, None);
    assert_eq!(
        (plan.stream.run.seed, plan.top),
        (bmn_app::input::DEFAULT_SEED, bmn_app::search::DEFAULT_TOP)
    );
    assert_eq!(plan.shard, Shard::WHOLE);
    assert_eq!(plan.stream.engine, engine);
    assert_eq!(plan.stream.source, TableInput::default().source().unwrap());
    assert_eq!(plan.stream.rules, bmn_core::Rules::STANDARD);
    assert_eq!(plan.stream.run.threads, bmn_app::input::every_core());

    let plan = StatsPlan::try_from(&StatsRequest::default()).unwrap();
    assert_eq!(
        (plan.stream.games, plan.stream.time, plan.stream.run.seed),
        (
            Some(bmn_app::stats::DEFAULT_STATS_GAMES),
            None,
            bmn_app::input::DEFAULT_SEED
        )
    );
    assert_eq!(plan.stream.engine, engine);

    let plan = OddsPlan::try_from(&OddsRequest::default()).unwrap();
    assert_eq!(plan.fit_games, bmn_app::odds::DEFAULT_FIT_GAMES);
    assert_eq!(plan.target_cards, bmn_app::records::longest().cards + 1);
    assert_eq!(plan.model, None);
}

#[test]
fn a_time_is_the_same_given_as_text_or_as_seconds() {
    let plan = |time: &str| {
        SearchPlan::try_from(&SearchRequest {
            stream: bmn_app::stream::StreamRequest {
                games: bmn_app::stream::GamesArg {
                    time: TimeArg::of(time),
                    games: None,
                },
                ..Default::default()
            },
            ..Default::default()
        })
    };
    let text = plan("90s").unwrap();
    let seconds = plan("90").unwrap();
    assert_eq!(text.stream.time, Some(Duration::from_secs(90)));
    assert_eq!(seconds.stream.time, text.stream.time);
    // Only a time: play until it is up.
    assert_eq!(text.stream.games, None);
    assert_eq!(
        plan("1.5m").unwrap().stream.time,
        Some(Duration::from_secs(90))
    );
    for bad in [-1.0, 0.0, f64::NAN, f64::INFINITY] {
        let e = error(plan(&bad.to_string()));
        assert!(e.starts_with("bad --time"), "{e}");
    }
    let e = error(plan("9x"));
    assert!(e.contains("bad --time '9x'"), "{e}");
}

/// Every count that must be at least 1 is refused at 0 in the same words, naming its flag.
#[test]
fn a_count_of_zero_is_refused_by_its_flag() {
    let refused = |e: String, flag: &str| assert_eq!(e, format!("bad {flag}: must be at least 1"));
    // A request of one field, refused by the plan, naming `flag`.
    macro_rules! zero {
        ($plan:ident, $request:ident, $field:ident: $value:expr, $flag:literal) => {
            refused(
                error($plan::try_from(&$request {
                    $field: $value,
                    ..Default::default()
                })),
                $flag,
            )
        };
    }
    refused(
        error(StatsPlan::try_from(&StatsRequest {
            stream: bmn_app::stream::StreamRequest {
                games: bmn_app::stream::GamesArg::games(0),
                ..Default::default()
            },
            ..Default::default()
        })),
        "--games",
    );
    zero!(BenchPlan, BenchRequest, games: Some(0), "--games");
    zero!(OddsPlan, OddsRequest, fit_games: Some(0), "--fit-games");
    zero!(FactoryPlan, FactoryRequest, rounds: Some(0), "--rounds");
    zero!(ClimbPlan, ClimbRequest, evals: Some(0), "--evals");
    zero!(TreesPlan, TreesRequest, samples: Some(0), "--samples");
    zero!(ConstructPlan, ConstructRequest, basin_limit: Some(0), "--basin-limit");
    // Counts that were once silently raised to 1.
    zero!(FactoryPlan, FactoryRequest, walk: WalkArgs { walkers: Some(0), ..WalkArgs::default() }, "--walkers");
    zero!(FactoryPlan, FactoryRequest, walk: WalkArgs { neighbours: Some(0), ..WalkArgs::default() }, "--neighbours");
    zero!(FactoryPlan, FactoryRequest, basin_limit: Some(0), "--basin-limit");
    zero!(ClimbPlan, ClimbRequest, walk: WalkArgs { walkers: Some(0), ..WalkArgs::default() }, "--walkers");
    zero!(ClimbPlan, ClimbRequest, walk: WalkArgs { neighbours: Some(0), ..WalkArgs::default() }, "--neighbours");
    zero!(ClimbPlan, ClimbRequest, restart: Some(0), "--restart");
    zero!(ClimbPlan, ClimbRequest, top: bmn_app::flags::TopArg { top: Some(0) }, "--top");
    zero!(CensusPlan, CensusRequest, basin_limit: Some(0), "--basin-limit");
    refused(
        error(ExhaustivePlan::try_from(&ExhaustiveRequest {
            deck: "4A,8-".into(),
            leader: bmn_app::flags::LeaderArg { leader: None },
            block: Some("0".into()),
            block_size: Some("0".into()),
            ..Default::default()
        })),
        "--block-size",
    );
    refused(
        error(SearchPlan::try_from(&SearchRequest {
            stream: bmn_app::stream::StreamRequest {
                run: bmn_app::seeded::SeededArgs::of(None, Some(0)),
                ..Default::default()
            },
            ..Default::default()
        })),
        "--threads",
    );
    refused(
        error(SearchPlan::try_from(&SearchRequest {
            stream: bmn_app::stream::StreamRequest {
                engine: EngineInput {
                    max_tricks: Some(0),
                    ..Default::default()
                },
                ..Default::default()
            },
            ..Default::default()
        })),
        "--max-tricks",
    );
}

/// The leader is defaulted and checked in one place: left out, player 1; 0 refused alike by
/// every command that takes one.
#[test]
fn a_leader_of_zero_is_refused_and_none_is_player_one() {
    let play = |leader| {
        PlayPlan::try_from(&PlayRequest {
            deal: Some("--Q-J-/Q-J-".into()),
            leader: LeaderArg { leader },
            ..Default::default()
        })
    };
    assert_eq!(play(None).unwrap().start.leader().number(), 1);
    assert_eq!(play(Some(2)).unwrap().start.leader().number(), 2);
    let zero = "bad --leader: 0: players are numbered from 1";
    assert_eq!(error(play(Some(0))), zero);
    assert_eq!(
        error(ExhaustivePlan::try_from(&ExhaustiveRequest {
            deck: "2J,2Q,4-".into(),
            leader: bmn_app::flags::LeaderArg { leader: Some(0) },
            ..Default::default()
        })),
        zero
    );
    let leader = LeaderArg { leader: Some(0) };
    let e = bmn_app::rank::rank(&bmn_app::rank::RankRequest {
        deal: "--Q-J-/Q-J-".into(),
        leader: leader.clone(),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.to_string(), zero);
    let e = bmn_app::rank::unrank(&bmn_app::rank::UnrankRequest {
        rank: "5".into(),
        leader: leader.clone(),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.to_string(), zero);
    let e = bmn_app::backward::backward(&bmn_app::backward::BackwardRequest {
        position: "--Q-J-/Q-J-".into(),
        leader,
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(e.to_string(), zero);
}

/// More threads than any machine has cores are refused, not started.
#[test]
fn thousands_of_threads_are_refused() {
    let e = error(SearchPlan::try_from(&SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            run: bmn_app::seeded::SeededArgs::of(None, Some(99_999)),
            ..Default::default()
        },
        ..Default::default()
    }));
    assert!(
        e.starts_with("bad --threads: 99999 is more than 1024"),
        "{e}"
    );
    let plan = SearchPlan::try_from(&SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            run: bmn_app::seeded::SeededArgs::of(None, Some(1024)),
            ..Default::default()
        },
        ..Default::default()
    });
    assert_eq!(plan.unwrap().stream.run.threads, 1024);
}

/// A run's extent: a count, a time, or both; a time alone means no count, neither the default.
#[test]
fn a_run_goes_for_its_count_its_time_or_both() {
    let climb = |evals, time: Option<&str>| {
        ClimbPlan::try_from(&ClimbRequest {
            evals,
            time: TimeArg {
                time: time.map(Into::into),
            },
            ..Default::default()
        })
        .unwrap()
    };
    let plan = climb(None, None);
    assert_eq!(
        (plan.evals, plan.time),
        (Some(bmn_app::climb::DEFAULT_EVALS), None)
    );
    let plan = climb(None, Some("5s"));
    assert_eq!(
        (plan.evals, plan.time),
        (None, Some(Duration::from_secs(5)))
    );
    let plan = climb(Some(64), Some("5s"));
    assert_eq!(
        (plan.evals, plan.time),
        (Some(64), Some(Duration::from_secs(5)))
    );
    let rounds = |rounds, time: Option<&str>| {
        let plan = FactoryPlan::try_from(&FactoryRequest {
            rounds,
            time: TimeArg {
                time: time.map(Into::into),
            },
            ..Default::default()
        })
        .unwrap();
        (plan.rounds, plan.time)
    };
    assert_eq!(
        rounds(None, None),
        (Some(bmn_app::factory::DEFAULT_ROUNDS), None)
    );
    assert_eq!(
        rounds(None, Some("2s")),
        (None, Some(Duration::from_secs(2)))
    );
    assert_eq!(rounds(Some(3), None), (Some(3), None));
}

#[test]
fn a_search_is_checked_once_with_each_fault_named() {
    let plan = |req: SearchRequest| SearchPlan::try_from(&req);
    let e = error(plan(SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(0),
            ..Default::default()
        },
        ..Default::default()
    }));
    assert_eq!(e, "bad --games: must be at least 1");
    let e = error(plan(SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg {
                time: TimeArg::of("10s"),
                games: None,
            },
            ..Default::default()
        },
        shard: bmn_app::flags::ShardArg {
            shard: Some("1/2".into()),
        },
        ..Default::default()
    }));
    assert!(
        e.contains("--shard and --out need a run of a known size"),
        "{e}"
    );
    let e = error(plan(SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            engine: EngineInput {
                give_up: bmn_app::flags::GiveUpArg { give_up: Some(0) },
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    }));
    assert_eq!(e, "bad --give-up: must be at least 1");
    let e = error(plan(SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            table: TableInput {
                players: Some(11),
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    }));
    assert!(e.starts_with("bad --players"), "{e}");
    let ok = plan(SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(5000),
            engine: EngineInput {
                give_up: bmn_app::flags::GiveUpArg { give_up: Some(77) },
                ..Default::default()
            },
            ..Default::default()
        },
        shard: bmn_app::flags::ShardArg {
            shard: Some("2/3".into()),
        },
        ..Default::default()
    })
    .unwrap();
    assert_eq!(ok.shard, Shard::parse("2/3").unwrap());
    assert_eq!(ok.stream.engine.give_up, 77);
}

#[test]
fn the_give_up_a_report_names_is_the_one_the_plan_resolved() {
    let req = SearchRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(2000),
            table: TableInput {
                players: Some(3),
                ..Default::default()
            },
            engine: EngineInput {
                give_up: bmn_app::flags::GiveUpArg {
                    give_up: Some(5000),
                },
                ..Default::default()
            },
            run: bmn_app::seeded::SeededArgs::of(None, Some(1)),
            ..Default::default()
        },
        ledger: bmn_app::flags::LedgerArgs::NONE,
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let report = bmn_app::search::search(&req, &mut bmn_job::Job::quiet(&stop)).unwrap();
    assert_eq!(report.params.give_up, 5000);
    let req = StatsRequest {
        stream: bmn_app::stream::StreamRequest {
            games: bmn_app::stream::GamesArg::games(2000),
            table: req.stream.table.clone(),
            engine: req.stream.engine.clone(),
            run: bmn_app::seeded::SeededArgs::of(None, Some(1)),
            ..Default::default()
        },
        ..Default::default()
    };
    let report = bmn_app::stats::stats(&req, &mut bmn_job::Job::quiet(&stop)).unwrap();
    assert_eq!(report.give_up, 5000);
}

#[test]
fn a_model_is_given_whole_or_not_at_all_on_every_front_end() {
    let e = error(OddsPlan::try_from(&OddsRequest {
        mu: Some(50.0),
        x0: Some(1000.0),
        ..Default::default()
    }));
    assert_eq!(
        e,
        "bad --mu/--x0/--p0: a model given needs all three (missing --p0)"
    );
    let e = error(OddsPlan::try_from(&OddsRequest {
        p0: Some(0.1),
        ..Default::default()
    }));
    assert!(e.ends_with("(missing --mu and --x0)"), "{e}");
    let plan = OddsPlan::try_from(&OddsRequest {
        mu: Some(50.0),
        x0: Some(1000.0),
        p0: Some(0.01),
        ..Default::default()
    })
    .unwrap();
    assert!(plan.model.is_some());
}

#[test]
fn an_enumeration_plan_holds_its_shards_ranks() {
    let req = |shard: &str| ExhaustiveRequest {
        deck: "2J,2Q,2K,2A,4-".into(),
        leader: bmn_app::flags::LeaderArg { leader: None },
        shard: bmn_app::flags::ShardArg {
            shard: Some(shard.into()),
        },
        ..Default::default()
    };
    let whole = ExhaustivePlan::try_from(&req("1/1")).unwrap();
    let deals = whole.enumeration.deals.count();
    assert_eq!(whole.block, [0, deals]);
    let mut covered = 0;
    for i in 1..=3 {
        let plan = ExhaustivePlan::try_from(&req(&format!("{i}/3"))).unwrap();
        assert_eq!(plan.enumeration.range.start, covered);
        covered = plan.enumeration.range.end;
    }
    assert_eq!(covered, deals);
    let e = error(ExhaustivePlan::try_from(&ExhaustiveRequest {
        deck: "2J,2Q,2K,2A,4-".into(),
        leader: bmn_app::flags::LeaderArg { leader: Some(3) },
        ..Default::default()
    }));
    assert_eq!(e, "bad --leader: 3, but an enumeration deals to 2 players");
}

#[test]
fn plays_and_plots_are_checked_before_anything_is_played() {
    let e = error(PlayPlan::try_from(&PlayRequest {
        deal: Some("--Q-J-/Q-J-".into()),
        leader: bmn_app::flags::LeaderArg { leader: None },
        give_up: bmn_app::flags::GiveUpArg { give_up: Some(0) },
        ..Default::default()
    }));
    assert_eq!(e, "bad --give-up: must be at least 1");
    let e = error(StatsPlan::try_from(&StatsRequest {
        plot: bmn_app::flags::PlotArg {
            plot: Some("lengths.txt".into()),
        },
        ..Default::default()
    }));
    assert!(e.starts_with("bad --plot 'lengths.txt'"), "{e}");
}

#[test]
fn a_census_names_its_own_time_flag_and_checks_the_factory_first() {
    use bmn_app::census::{CensusPlan, CensusRequest};
    let e = error(CensusPlan::try_from(&CensusRequest {
        hands_time: Some("soon".into()),
        ..Default::default()
    }));
    assert!(e.starts_with("bad --hands-time 'soon'"), "{e}");
    let plan = CensusPlan::try_from(&CensusRequest {
        table: bmn_app::input::TableRules {
            deck: "camicia".into(),
            ..Default::default()
        },
        hands_time: Some("5".into()),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(plan.hands_time, Some(Duration::from_secs(5)));
    assert!(plan.factory.is_some(), "pieces runs on Camicia");
    let e = error(CensusPlan::try_from(&CensusRequest {
        rounds: Some(0),
        ..Default::default()
    }));
    assert!(e.starts_with("bad --rounds"), "{e}");
}

/// The census plans its enumeration of `deals` up front: two players and few enough deals
/// enumerate under the census's rules; more players play every deal on the reference engine,
/// too many deals are not played at all.
#[test]
fn a_census_plans_its_enumeration_where_the_deals_are_few_enough() {
    use bmn_app::census::{CensusPlan, CensusRequest, DealsSource};
    use bmn_app::input::RulesInput;
    let census = |deck: &str, players, deals_max| {
        CensusPlan::try_from(&CensusRequest {
            table: bmn_app::input::TableRules {
                deck: deck.into(),
                players: PlayersArg { players },
                rules: RulesInput {
                    on_empty: Some("collect".into()),
                    ..Default::default()
                },
            },
            methods: Some("deals".into()),
            deals_max,
            ..Default::default()
        })
        .unwrap()
    };
    let plan = census("2J,2Q,2K,2A,6-", None, None);
    let Some(DealsSource::Play(enumeration)) = plan.deals else {
        panic!("two players, 7,567,560 deals: {:?}", plan.deals)
    };
    assert_eq!(enumeration.rules, plan.rules);
    assert_eq!(enumeration.threads, plan.run.threads);
    assert_eq!(enumeration.block, [0, 7_567_560]);
    assert!(
        enumeration.enumeration.list_cycles,
        "every cycling deal, to check the basins against"
    );
    assert!(census("2J,2Q,2K,2A,6-", None, Some(1000)).deals.is_none());
    assert!(matches!(
        census("2J,1Q,1K,6-", Some(3), None).deals,
        Some(DealsSource::Reference)
    ));
}

/// The defaults an empty request gets, as literal numbers: the figures `--help` and the README
/// state, so that a changed constant fails here rather than drifting from the docs.
#[test]
fn the_defaults_are_the_documented_numbers() {
    let search = SearchPlan::try_from(&SearchRequest::default()).unwrap();
    assert_eq!(search.stream.games, Some(1_000_000));
    assert_eq!((search.stream.run.seed, search.top), (1, 10));
    assert_eq!(search.stream.engine.give_up, 100_000);
    assert_eq!(search.stream.engine.max_tricks, 3000);
    let stats = StatsPlan::try_from(&StatsRequest::default()).unwrap();
    assert_eq!(
        (stats.stream.games, stats.stream.run.seed),
        (Some(1_000_000), 1)
    );
    let climb = ClimbPlan::try_from(&ClimbRequest::default()).unwrap();
    assert_eq!(climb.evals, Some(10_000_000));
    assert_eq!(climb.config.restart_after, 5);
    let factory = FactoryPlan::try_from(&FactoryRequest::default()).unwrap();
    assert_eq!(factory.rounds, Some(200));
    let odds = OddsPlan::try_from(&OddsRequest::default()).unwrap();
    assert_eq!((odds.fit_games, odds.target_cards), (2_000_000, 8345));
    let bench = BenchPlan::try_from(&BenchRequest::default()).unwrap();
    assert_eq!(bench.games, 300_000);
}

/// `--hands` is checked with the plan, before any stage runs: a census asking for a small
/// hand the enumeration refuses (none, or the whole deck) fails at once, without playing the
/// factory's `pieces` first. Where `hands` does not run, `--hands` is not its business.
#[test]
fn a_census_refuses_a_bad_hands_before_anything_runs() {
    use bmn_app::census::census;
    use bmn_census::{HandsConfig, Method};
    use bmn_job::Hooks;
    /// Counts the stages started: none may start before the refusal.
    struct Stages(usize);
    impl Hooks for Stages {
        fn start(&mut self, _: Option<u64>, _: u64, _: &str) {
            self.0 += 1;
        }
    }
    let camicia = |hands, methods: Option<&str>| CensusRequest {
        table: bmn_app::input::TableRules {
            deck: "camicia".into(),
            ..Default::default()
        },
        hands,
        methods: methods.map(Into::into),
        ..Default::default()
    };
    for hands in [0, 40, 41] {
        let e = error(CensusPlan::try_from(&camicia(Some(hands), None)));
        assert!(
            e.starts_with("bad --hands: the small hand must hold"),
            "{e}"
        );
        let mut stages = Stages(0);
        let stop = std::sync::atomic::AtomicBool::new(false);
        let e = error(census(
            &camicia(Some(hands), None),
            &mut bmn_job::Job::new(&mut stages, &stop),
        ));
        assert!(e.starts_with("bad --hands"), "{e}");
        assert_eq!(
            stages.0, 0,
            "nothing ran before --hands {hands} was refused"
        );
    }
    let plan = CensusPlan::try_from(&camicia(Some(0), Some("pieces"))).unwrap();
    assert_eq!((plan.methods, plan.hands), (vec![Method::Pieces], None));
    let plan = CensusPlan::try_from(&camicia(None, Some("deals, hands,deals"))).unwrap();
    assert_eq!(plan.methods, [Method::Deals, Method::Hands]);
    assert_eq!(
        plan.hands,
        Some(HandsConfig {
            deck: *plan.source.deck(),
            rules: plan.rules,
            max_hand: 2,
        })
    );
}

/// The census builds its factory's and its enumeration's plans from its own checked values:
/// the same plans as `bmn pieces factory` and `bmn exhaustive --list-cycles` requests naming
/// the same table, rules, seed, rounds and threads would make.
#[test]
fn a_census_plans_its_factory_and_enumeration_as_their_own_requests_would() {
    use bmn_app::input::RulesInput;
    for (deck, penalties, on_empty) in [
        ("2J,2Q,2K,14-", None, None),
        ("camicia", None, Some("collect")),
        ("2J,2Q,2K,2A,6-", Some("K3,J2,Q1,A0"), None),
        ("standard", None, None),
    ] {
        let table = DeckArg::from(deck);
        let rules = RulesInput {
            penalties: penalties.map(Into::into),
            on_empty: on_empty.map(Into::into),
        };
        let plan = CensusPlan::try_from(&CensusRequest {
            table: bmn_app::input::TableRules {
                deck: table.clone(),
                rules: rules.clone(),
                ..Default::default()
            },
            run: bmn_app::seeded::SeededArgs::of(Some(7), Some(3)),
            rounds: Some(5),
            methods: Some("pieces,deals".into()),
            deals_max: Some(u64::MAX),
            ..Default::default()
        })
        .unwrap();
        let factory = FactoryPlan::try_from(&FactoryRequest {
            table: bmn_app::input::TableRules {
                deck: table.clone(),
                rules: rules.clone(),
                ..Default::default()
            },
            run: bmn_app::seeded::SeededArgs::of(Some(7), Some(3)),
            rounds: Some(5),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            format!("{:?}", plan.factory),
            format!("{:?}", Some(factory))
        );
        if deck == "standard" {
            assert!(plan.deals.is_none(), "more deals than a run plays");
            continue;
        }
        let enumeration = ExhaustivePlan::try_from(&ExhaustiveRequest {
            deck: deck.into(),
            rules,
            list_cycles: true,
            ledger: bmn_app::flags::LedgerArgs::NONE,
            threads: bmn_app::flags::ThreadsArg { threads: Some(3) },
            ..Default::default()
        })
        .unwrap();
        let Some(bmn_app::census::DealsSource::Play(e)) = plan.deals else {
            panic!("{deck}: two players, deals played");
        };
        assert_eq!(format!("{e:?}"), format!("{enumeration:?}"), "{deck}");
    }
}

/// A run's file in a folder that does not exist is refused before anything is played, naming
/// the folder (bmn makes no folder it was not asked for).
#[test]
fn a_file_to_write_needs_its_folder() {
    let e = error(SearchPlan::try_from(&SearchRequest {
        out: Some("no-such-folder-of-bmn/run.json".into()),
        ..Default::default()
    }));
    assert_eq!(
        e,
        "bad --out 'no-such-folder-of-bmn/run.json': the folder no-such-folder-of-bmn does not exist"
    );
    let e = error(ExhaustivePlan::try_from(&ExhaustiveRequest {
        deck: "2J,2Q,4-".into(),
        checkpoint: Some("no-such-folder-of-bmn/c.json".into()),
        ..Default::default()
    }));
    assert!(e.starts_with("bad --checkpoint"), "{e}");
    let plan = SearchPlan::try_from(&SearchRequest {
        out: Some("run.json".into()),
        ..Default::default()
    });
    assert!(plan.is_ok(), "a bare file name is in the current folder");
}

/// The other parameters a message names are typed, not found in its text: each front end
/// spells them (`--players`, `players`), and nothing the user typed is taken for one.
#[test]
fn a_message_names_every_parameter_in_each_front_ends_words() {
    use bmn_app::Spelling::{Flags, Names};
    let odds = OddsPlan::try_from(&OddsRequest {
        mu: Some(2.0),
        ..Default::default()
    })
    .unwrap_err();
    assert_eq!(
        odds.spelled(Flags),
        "bad --mu/--x0/--p0: a model given needs all three (missing --x0 and --p0)"
    );
    assert_eq!(
        odds.spelled(Names),
        "bad mu/x0/p0: a model given needs all three (missing x0 and p0)"
    );
    let play = PlayPlan::try_from(&PlayRequest {
        table: bmn_app::input::TableRules {
            players: bmn_app::flags::PlayersArg { players: Some(3) },
            ..Default::default()
        },
        deal: Some("--/J-".into()),
        ..Default::default()
    })
    .unwrap_err();
    assert!(play.spelled(Flags).ends_with("but --players 3"), "{play}");
    assert!(play.spelled(Names).ends_with("but players 3"), "{play}");
    let methods = CensusPlan::try_from(&CensusRequest {
        methods: Some("--on-empty".into()),
        ..Default::default()
    })
    .unwrap_err();
    assert!(methods.spelled(Names).contains("'--on-empty'"), "{methods}");
}

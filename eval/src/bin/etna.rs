//! `etna`: run the ETNA-style benchmark and print, save and chart the
//! results. `etna --help` lists the options.

use pbt_eval::chart;
use pbt_eval::harness::{self, Plan, Workload};
use pbt_eval::probe::Probe;
use pbt_eval::results::{self, seconds, Results};
use pbt_eval::strategy::Strategy;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const HELP: &str = "\
etna — ETNA-style bug-finding benchmark: pbt vs proptest vs quickcheck

USAGE: cargo run --release -p pbt-eval --bin etna -- [OPTIONS]

OPTIONS:
  --quick             a small subset (2 tasks per workload, 2 trials, 0.5 s)
                      that only checks the harness works; writes no charts
                      unless --charts is given
  --trials T          trials per (strategy, task) of the headline strategies
                      [default: 10]
  --runner-trials T   trials per (strategy, task) of pbt's other runners
                      [default: as --trials]
  --rare-trials T     trials of a (strategy, task) whose planned trials all
                      failed after more than 10 000 tests on average
                      [default: 20]
  --timeout S         time limit of a trial in seconds [default: 60]
  --workload W        BST, RBT, STLC, STLC-bool (STLC without TInt in the
                      generators), IFC (ETNA's register machine, SSNI) or
                      Stack (the stack machine of Testing Noninterference,
                      Quickly, EENI) (repeat or comma-separate) [default: all]
  --max-tests N       also end a trial, unsolved, after N tests (the stack
                      machine's protocol: 10 000)
  --strategy S        a strategy (repeat or comma-separate), or `headline`
                      (the first six) or `runners` (pbt's other runners)
                      [default: all]:
                        headline: pbt-bespoke, pbt-type, proptest-bespoke,
                          proptest-type, quickcheck-bespoke, quickcheck-type
                        runners: pbt-{bespoke,type}-{parallel,fuzz-choices,
                          fuzz-values,targeted,integrated,exhaustive,
                          exhaustive-prefix}
                        pools: the 21 seed-pool configurations on the fuzz
                          runner, pbt-type-fuzz-{fifo,filo,heap,monotonic,
                          resetting}-{1,10,100,1000} and pbt-type-fuzz-static
                        variational-pools: the same with ETNA's
                          variational input, pbt-variational-fuzz-{…} (IFC)
                        more: pbt-variational-fuzz-{values,heap-100} (IFC),
                          pbt-bespoke-fuzz-{heap-100,heap-1000,fifo-100,
                          monotonic-100}
  --mutant M          only the tasks of these mutants (repeat or comma-separate)
  --stack-target T    the target the stack machine's precondition reports to
                      the targeted runner: diversity (Table 1 of Flexible
                      and Automatic TPBT), or one a user testing a rule
                      would write: secret-stores (the store rule, through
                      secret addresses: STORE*A), high-pc-stores (the
                      store rule in a secret context: STORE*E) or
                      secret-returns (the return rule, from a secret
                      context: CALL*A-2, RETURN*A) [default: diversity]
  --all-trials        run every trial even after an unsolved one
  --seed N            salt of the trials' seeds (each trial's seed is derived
                      from the salt, the task, the strategy and the trial
                      number; another salt resamples every trial)
                      [default: 0x5eed]
  --pbt-sizes S       the size schedule of every pbt strategy: cycle (pbt's
                      default, 0..=100 over and over), log2 (the size is
                      log2 of the test number: small first, growing) or
                      fixed:N [default: cycle]
  --property P        only the tasks of these properties (repeat or
                      comma-separate)
  --cost N            run every selected strategy on every selected pair for
                      exactly N tests, once, on the correct implementation
                      unless --mutant says otherwise, and print its tests and
                      time: the fixed-count runs that `valgrind
                      --tool=callgrind` measures per test (docs/etna.md)
  --all-pairs         every mutant × property pair (base included), not only
                      the tasks: to find out which pairs are tasks
  --json FILE         write the results as JSON
  --charts DIR        write the bucket charts (SVG) here [default: docs/etna]
  --from-json FILES   print and chart saved results instead of running
                      (comma-separate several runs to merge them)
  -h, --help          this text
";

/// The parsed command line.
struct Args {
    quick: bool,
    trials: u32,
    runner_trials: Option<u32>,
    rare_trials: u32,
    timeout: f64,
    workloads: Vec<Workload>,
    strategies: Vec<Strategy>,
    mutants: Vec<String>,
    properties: Vec<String>,
    cost: Option<u64>,
    all_trials: bool,
    all_pairs: bool,
    salt: u64,
    max_tests: Option<u64>,
    json: Option<PathBuf>,
    charts: Option<PathBuf>,
    from_json: Option<Vec<PathBuf>>,
}

fn parse(mut argv: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut a = Args {
        quick: false,
        trials: 10,
        runner_trials: None,
        rare_trials: 20,
        timeout: 60.0,
        workloads: Vec::new(),
        strategies: Vec::new(),
        mutants: Vec::new(),
        properties: Vec::new(),
        cost: None,
        all_trials: false,
        all_pairs: false,
        salt: harness::DEFAULT_SALT,
        max_tests: None,
        json: None,
        charts: None,
        from_json: None,
    };
    let (mut trials, mut timeout) = (None, None);
    while let Some(arg) = argv.next() {
        let mut value = |name: &str| argv.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--quick" => a.quick = true,
            "--all-trials" => a.all_trials = true,
            "--all-pairs" => a.all_pairs = true,
            "--stack-target" => {
                let v = value("--stack-target")?;
                let t = pbt_eval::stack::Target::from_name(&v).ok_or_else(|| {
                    let names: Vec<&str> = pbt_eval::stack::Target::ALL
                        .iter()
                        .map(|t| t.name())
                        .collect();
                    format!("--stack-target {v}: expected one of {}", names.join(", "))
                })?;
                pbt_eval::stack::set_target(t);
            }
            "--max-tests" => {
                let v = value("--max-tests")?;
                a.max_tests = Some(
                    v.parse()
                        .map_err(|_| format!("--max-tests {v}: not a number"))?,
                );
            }
            "--trials" => {
                let v = value("--trials")?;
                trials = Some(
                    v.parse()
                        .map_err(|_| format!("--trials {v}: not a number"))?,
                );
            }
            "--runner-trials" | "--rare-trials" => {
                let v = value(&arg)?;
                let n: u32 = v.parse().map_err(|_| format!("{arg} {v}: not a number"))?;
                if arg == "--rare-trials" {
                    a.rare_trials = n;
                } else {
                    a.runner_trials = Some(n.max(1));
                }
            }
            "--timeout" => {
                let v = value("--timeout")?;
                let s: f64 = v
                    .parse()
                    .map_err(|_| format!("--timeout {v}: not a number"))?;
                if !(s > 0.0 && s.is_finite()) {
                    return Err(format!("--timeout {v}: must be positive"));
                }
                timeout = Some(s);
            }
            "--workload" => {
                for w in value("--workload")?.split(',') {
                    let w = Workload::ALL
                        .iter()
                        .find(|x| x.name().eq_ignore_ascii_case(w))
                        .ok_or(format!(
                            "unknown workload {w} (BST, RBT, STLC, STLC-bool, IFC, Stack)"
                        ))?;
                    a.workloads.push(*w);
                }
            }
            "--strategy" => {
                for s in value("--strategy")?.split(',') {
                    if s == "pools" || s == "more" || s == "variational-pools" {
                        a.strategies.extend(match s {
                            "pools" => &Strategy::POOLS[..],
                            "more" => &Strategy::MORE[..],
                            _ => &Strategy::VARIATIONAL_POOLS[..],
                        });
                        continue;
                    }
                    if s == "headline" || s == "runners" {
                        a.strategies.extend(
                            Strategy::ALL
                                .into_iter()
                                .filter(|x| x.is_headline() == (s == "headline")),
                        );
                        continue;
                    }
                    let names: Vec<&str> = Strategy::ALL
                        .iter()
                        .chain(&Strategy::POOLS)
                        .chain(&Strategy::MORE)
                        .chain(&Strategy::VARIATIONAL_POOLS)
                        .map(|s| s.name())
                        .collect();
                    a.strategies.push(
                        Strategy::from_name(s)
                            .ok_or(format!("unknown strategy {s} ({})", names.join(", ")))?,
                    );
                }
            }
            "--seed" => {
                let v = value("--seed")?;
                let parsed = match v.strip_prefix("0x") {
                    Some(hex) => u64::from_str_radix(hex, 16),
                    None => v.parse(),
                };
                a.salt = parsed.map_err(|_| format!("--seed {v}: not a decimal or 0x-hex u64"))?;
            }
            "--mutant" => a
                .mutants
                .extend(value("--mutant")?.split(',').map(str::to_string)),
            "--property" => a
                .properties
                .extend(value("--property")?.split(',').map(str::to_string)),
            "--cost" => {
                let v = value("--cost")?;
                let n: u64 = v.parse().map_err(|_| format!("--cost {v}: not a number"))?;
                a.cost = Some(n.max(1));
            }
            "--pbt-sizes" => {
                let v = value("--pbt-sizes")?;
                let sizes = match v.as_str() {
                    "cycle" => pbt::runners::Sizes::Cycle,
                    "log2" => pbt::runners::Sizes::Log2,
                    fixed => match fixed.strip_prefix("fixed:").map(str::parse) {
                        Some(Ok(n)) => pbt::runners::Sizes::Fixed(n),
                        _ => {
                            return Err(format!("--pbt-sizes {v}: expected cycle, log2 or fixed:N"))
                        }
                    },
                };
                pbt_eval::common::set_pbt_sizes(sizes);
            }
            "--json" => a.json = Some(value("--json")?.into()),
            "--charts" => a.charts = Some(value("--charts")?.into()),
            "--from-json" => {
                a.from_json = Some(
                    value("--from-json")?
                        .split(',')
                        .map(PathBuf::from)
                        .collect(),
                )
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.quick {
        a.trials = 2;
        a.timeout = 0.5;
    }
    a.trials = trials.unwrap_or(a.trials).max(1);
    a.timeout = timeout.unwrap_or(a.timeout);
    if a.workloads.is_empty() {
        a.workloads = Workload::ALL.to_vec();
    }
    if a.strategies.is_empty() {
        a.strategies = Strategy::ALL.to_vec();
    }
    Ok(a)
}

/// What the machine is: CPU model and the cores this process may use.
fn machine() -> String {
    let model = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    format!("{model}, {cores} cores available, {}", std::env::consts::OS)
}

fn main() {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) if e.is_empty() => {
            print!("{HELP}");
            return;
        }
        Err(e) => {
            eprintln!("etna: {e}\n\n{HELP}");
            std::process::exit(2);
        }
    };
    if let Some(tests) = args.cost {
        return cost(&args, tests);
    }
    let results = match &args.from_json {
        Some(paths) => {
            let mut all: Vec<Results> = paths.iter().map(load).collect();
            let mut first = all.remove(0);
            for more in all {
                first.command = format!("{} + {}", first.command, more.command);
                first.wall_time += more.wall_time;
                first.timeout = first.timeout.max(more.timeout);
                first.results.extend(more.results);
            }
            first
        }
        None => run(&args),
    };
    report(&results);
    if let Some(path) = &args.json {
        let json = serde_json::to_string(&results).expect("results serialise");
        if let Err(e) = std::fs::write(path, json) {
            eprintln!("etna: writing {}: {e}", path.display());
            std::process::exit(1);
        }
        eprintln!("wrote {}", path.display());
    }
    let charts = args.charts.clone().or_else(|| {
        (!args.quick).then(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/etna"))
    });
    if let Some(dir) = charts {
        match chart::draw_all(&results, &dir) {
            Ok(paths) => {
                for p in paths {
                    eprintln!("wrote {}", p.display());
                }
            }
            Err(e) => {
                eprintln!("etna: {e}");
                std::process::exit(1);
            }
        }
    }
}

fn load(path: &PathBuf) -> Results {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("etna: reading {}: {e}", path.display());
        std::process::exit(1)
    });
    serde_json::from_str(&text).unwrap_or_else(|e| {
        eprintln!("etna: {}: {e}", path.display());
        std::process::exit(1)
    })
}

/// `--cost`: each selected strategy on each selected pair (the correct
/// implementation unless `--mutant` says otherwise) for exactly `tests`
/// tests, from the trial seed of trial 0, twice (a warm-up, then the one
/// printed). Every check passes, so each runner generates and checks
/// `tests` inputs; the probe's budget then fails the next one and
/// [`pbt_eval::probe::budget_spent`] marks where callgrind stops counting
/// (`--dump-before=*budget_spent*`).
fn cost(args: &Args, tests: u64) {
    let mut tasks = Vec::new();
    for w in &args.workloads {
        let mut of_w = harness::all_pairs(*w);
        let base = ["base".to_string()];
        let mutants = if args.mutants.is_empty() {
            &base[..]
        } else {
            &args.mutants[..]
        };
        of_w.retain(|t| mutants.iter().any(|m| m == t.mutant()));
        if !args.properties.is_empty() {
            of_w.retain(|t| args.properties.iter().any(|p| p == t.property()));
        }
        tasks.extend(of_w);
    }
    std::panic::set_hook(Box::new(|_| {}));
    for task in &tasks {
        for &strategy in &args.strategies {
            let seed = harness::seed(args.salt, *task, strategy, 0);
            // A warm-up trial first, as every trial but the first of an
            // ETNA run finds the process (one-time set-up done); callgrind
            // measures the second (`--zero-before=*trial_with*`).
            let (mut t, mut took) = (None, Duration::ZERO);
            for _ in 0..2 {
                let probe = Probe::with_budget(Duration::from_secs(3600), tests);
                let started = Instant::now();
                t = Some(harness::trial_with(
                    strategy,
                    *task,
                    seed,
                    std::sync::Arc::new(probe),
                ));
                took = started.elapsed();
            }
            let t = t.expect("two trials ran");
            println!(
                "{} {}/{} {}: {} tests, {} discards, {} ({:.2} µs per input){}",
                task.workload().name(),
                task.mutant(),
                task.property(),
                strategy.name(),
                t.tests,
                t.discards,
                seconds(took.as_secs_f64()),
                took.as_secs_f64() * 1e6 / (t.tests + t.discards).max(1) as f64,
                if t.solved {
                    " — FAILED: not the correct implementation?"
                } else {
                    ""
                }
            );
        }
    }
}

fn run(args: &Args) -> Results {
    let mut tasks = Vec::new();
    for w in &args.workloads {
        let mut of_w = if args.all_pairs {
            harness::all_pairs(*w)
        } else {
            harness::tasks(*w)
        };
        if !args.mutants.is_empty() {
            of_w.retain(|t| args.mutants.iter().any(|m| m == t.mutant()));
        }
        if !args.properties.is_empty() {
            of_w.retain(|t| args.properties.iter().any(|p| p == t.property()));
        }
        if args.quick {
            of_w.truncate(2);
        }
        tasks.extend(of_w);
    }
    let plan = Plan {
        strategies: args.strategies.clone(),
        tasks,
        trials: args.trials,
        runner_trials: args.runner_trials.unwrap_or(args.trials),
        rare_trials: args.rare_trials,
        timeout: Duration::from_secs_f64(args.timeout),
        all_trials: args.all_trials,
        salt: args.salt,
        max_tests: args.max_tests,
    };
    eprintln!(
        "etna: {} tasks × {} strategies × {} trials, {} s limit per trial",
        plan.tasks.len(),
        plan.strategies.len(),
        plan.trials,
        args.timeout
    );
    // Panics inside checks are failures the probe records: keep them quiet.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let started = Instant::now();
    let command = std::iter::once("etna".to_string())
        .chain(std::env::args().skip(1))
        .collect::<Vec<_>>()
        .join(" ");
    let mut so_far = Vec::new();
    let done = harness::run(&plan, |r| {
        // The results so far, saved after every (strategy, task): a run cut
        // short still leaves what it measured.
        if let Some(path) = &args.json {
            so_far.push(r.clone());
            let partial = Results {
                command: format!("{command} (partial: cut short)"),
                machine: machine(),
                trials: args.trials,
                timeout: args.timeout,
                wall_time: started.elapsed().as_secs_f64(),
                results: so_far.clone(),
            };
            if let Ok(json) = serde_json::to_string(&partial) {
                let _ = std::fs::write(path, json);
            }
        }
        let solved = r.trials.iter().filter(|t| t.solved).count();
        let mean = r.mean_time().map_or("–".into(), seconds);
        let tests = r.mean_tests().map_or("–".into(), |n| format!("{n:.0}"));
        let note = r
            .trials
            .iter()
            .find_map(|t| t.note.as_deref())
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        eprintln!(
            "{:5} {:>22}/{:<18} {:>18}: {solved}/{} solved, mean {mean}, {tests} tests{note}",
            r.workload, r.mutant, r.property, r.strategy, r.trials_planned
        );
    });
    let wall_time = started.elapsed().as_secs_f64();
    std::panic::set_hook(hook);
    Results {
        command,
        machine: machine(),
        trials: args.trials,
        timeout: args.timeout,
        wall_time,
        results: done,
    }
}

fn report(results: &Results) {
    println!(
        "# {}\n\nmachine: {}; {} trials, {} s limit; wall time {}",
        results.command,
        results.machine,
        results.trials,
        results.timeout,
        seconds(results.wall_time)
    );
    println!("{}", results::headline_table(results));
    println!("{}", results::bucket_table(results));
    println!(
        "{}",
        results::comparison_table(&results::comparisons(results))
    );
    println!(
        "{}",
        pbt_eval::effort::effort_table(&pbt_eval::effort::efforts(results))
    );
    let (table, missed) = results::mutant_table(results);
    println!("{table}");
    if missed.is_empty() {
        println!("every mutant was found by a pbt strategy");
    } else {
        println!("not found by any pbt strategy: {}", missed.join(", "));
    }
}

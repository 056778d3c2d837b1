//! `layers [--circles-only] [--graph] DIR`: the layer check of `enrollflow_layers` on a source
//! folder (`server/src`; `--circles-only engine/src` for the engine), run by `make check`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let circles_only = args.iter().any(|a| a == "--circles-only");
    let graph = args.iter().any(|a| a == "--graph");
    let src = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| PathBuf::from("server/src"), PathBuf::from);
    let report = match enrollflow_layers::check(&src, circles_only) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("layers: {}: {e}", src.display());
            return ExitCode::FAILURE;
        }
    };
    if graph {
        for (a, targets) in &report.edges {
            for b in targets {
                println!("{a} -> {b}");
            }
        }
    }
    for p in &report.problems {
        eprintln!("layers: {p}");
    }
    if !report.problems.is_empty() {
        return ExitCode::FAILURE;
    }
    let arrows: usize = report.edges.values().map(|t| t.len()).sum();
    println!(
        "layers: {} modules, {arrows} arrows, no circle, none against the order",
        report.modules
    );
    ExitCode::SUCCESS
}

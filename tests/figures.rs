//! Figures: screen style unchanged (byte for byte the committed `plots/`), paper style at the
//! single-column size with no title and the papers' symbols, no partial files left behind, and
//! docs/figures.md showing every figure.

use std::path::Path;

use super::common::pathology;

/// Width and height from a PNG's IHDR chunk.
fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG", "{} is not a PNG", path.display());
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn screen_figures_are_the_committed_plots_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    pathology()
        .args(["errprop", "figures", "--style", "screen", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let plots = Path::new(env!("CARGO_MANIFEST_DIR")).join("plots");
    let mut compared = 0;
    for name in names(dir.path()) {
        if name.ends_with(".png") || name.ends_with(".svg") {
            let ours = std::fs::read(dir.path().join(&name)).unwrap();
            let committed = std::fs::read(plots.join(&name)).unwrap();
            assert!(ours == committed, "{name} differs from plots/{name}");
            compared += 1;
        }
    }
    // Li & Marsland's Figs. 2, 3, 4 and the phase portrait (not the other
    // papers' figures any more).
    assert_eq!(compared, 8);
    assert_eq!(png_size(&dir.path().join("errprop_fig2.png")), (900, 700));
}

#[test]
fn paper_figures_are_single_column_untitled_with_symbols() {
    let dir = tempfile::tempdir().unwrap();
    pathology()
        .args(["errprop", "figures", "--style", "paper", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    pathology()
        .args([
            "trend", "--from", "10", "--to", "11", "--style", "paper", "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let all = names(dir.path());
    let pngs: Vec<&String> = all.iter().filter(|n| n.ends_with(".png")).collect();
    assert_eq!(pngs.len(), 6, "{all:?}");
    for name in pngs {
        // 3.3 in by 2.5 in at 300 dpi.
        assert_eq!(png_size(&dir.path().join(name)), (990, 750), "{name}");
    }
    let svg = std::fs::read_to_string(dir.path().join("errprop_fig2.svg")).unwrap();
    assert!(svg.contains(r#"width="990""#) && svg.contains(r#"height="750""#));
    assert!(
        !svg.contains("Li &amp; Marsland Fig. 2"),
        "a title is drawn"
    );
    assert!(svg.contains("γ = Pr[Ψ = 1 | loss]"), "no gamma symbol");
    assert!(svg.contains("f₁ = f₂ = 0.7"), "no subscripts");
    // Fonts of at least 8 pt at 300 dpi (an em of 33.3 px): every font-size in the SVG.
    let sizes: Vec<f64> = svg
        .split("font-size=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
        .collect();
    assert!(!sizes.is_empty());
    assert!(sizes.iter().all(|&s| s >= 8.0 / 72.0 * 300.0), "{sizes:?}");
    // Integer axis: the trend's heights are labelled 10 and 11 only, without decimals.
    let trend = std::fs::read_to_string(dir.path().join("trend_threshold.svg")).unwrap();
    // (plotters writes each text on a line of its own).
    assert!(
        trend.contains("\n10\n") && trend.contains("\n11\n"),
        "{trend}"
    );
    assert!(
        !trend.contains("\n10.5\n") && !trend.contains("\n10.0\n"),
        "{trend}"
    );
    let screen = tempfile::tempdir().unwrap();
    pathology()
        .args(["errprop", "figures", "--out"])
        .arg(screen.path())
        .assert()
        .success();
    let titled = std::fs::read_to_string(screen.path().join("errprop_fig2.svg")).unwrap();
    assert!(titled.contains("Li &amp; Marsland Fig. 2"));
}

#[test]
fn figure_commands_leave_no_partial_files() {
    let dir = tempfile::tempdir().unwrap();
    pathology()
        .args(["errprop", "figures", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    pathology()
        .args(["trend", "--from", "10", "--to", "11", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let all = names(dir.path());
    // errprop figures: 10 files and dgame_fig4.csv's manifest; trend: 5 and trend.csv's.
    assert_eq!(all.len(), 11 + 6, "{all:?}");
    assert!(all.iter().all(|n| !n.contains(".partial")), "{all:?}");
}

/// Docs/figures.md shows every figure that plots/INDEX.md lists (it showed 12 of 32).
#[test]
fn the_figures_page_shows_every_figure() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let index = std::fs::read_to_string(root.join("plots/INDEX.md")).unwrap();
    let page = std::fs::read_to_string(root.join("docs/figures.md")).unwrap();
    let pngs: Vec<&str> = index
        .lines()
        .filter_map(|l| l.strip_prefix("| ["))
        .filter_map(|l| l.split(']').next())
        .filter(|name| name.ends_with(".png"))
        .collect();
    assert!(pngs.len() >= 30, "{pngs:?}");
    for png in pngs {
        assert!(
            page.contains(&format!("(../plots/{png})")),
            "{png} is not on docs/figures.md"
        );
    }
}

//! Unit tests of `plot/mod.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;

fn panel(y_label: &str, y_range: (f64, f64)) -> Panel {
    Panel {
        axes: Axes {
            title: "t".into(),
            x_label: "search depth".into(),
            y_label: y_label.into(),
            x_range: (0.5, 3.5),
            x_scale: Scale::Linear,
            y_range,
        },
        series: vec![ErrorSeries {
            label: "a".into(),
            points: vec![ErrorPoint {
                x: 1.0,
                y: 0.5,
                low: 0.45,
                high: 0.55,
            }],
        }],
        legend: LegendPosition::LowerRight,
        reference: None,
    }
}

fn png_size(path: &Path) -> (u32, u32) {
    let bytes = std::fs::read(path).unwrap();
    let word = |at: usize| u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap());
    (word(16), word(20))
}

#[test]
fn paper_panels_stack_in_one_column_and_screen_panels_sit_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let panels = [panel("share", (0.4, 0.6)), panel("share", (0.3, 0.5))];
    let paper = dir.path().join("paper.png");
    error_bar_chart(&paper, &panels, Style::Paper).unwrap();
    // The two panels name the same curve: their legend has a cell of its own below them.
    assert_eq!(png_size(&paper), (PAPER_SIZE.0, 3 * PAPER_SIZE.1));
    let screen = dir.path().join("screen.png");
    error_bar_chart(&screen, &panels, Style::Screen).unwrap();
    assert_eq!(png_size(&screen), (2 * SIZE.0, SIZE.1));
}

#[test]
fn panels_of_one_quantity_share_their_y_range() {
    let shared = shared_y_ranges(&[
        panel("share", (0.4, 0.6)),
        panel("share", (0.3, 0.5)),
        panel("rhf", (0.0, 0.2)),
    ]);
    assert_eq!(shared[0].axes.y_range, (0.3, 0.6));
    assert_eq!(shared[1].axes.y_range, (0.3, 0.6));
    assert_eq!(shared[2].axes.y_range, (0.0, 0.2));
}

#[test]
fn integer_axes_get_whole_ticks() {
    assert!(integer_axis([1.0, 2.0, 10.0].into_iter()));
    assert!(!integer_axis([0.0, 0.5].into_iter()));
    assert!(!integer_axis(std::iter::empty()));
    assert_eq!(integer_labels((9.5, 16.5)), 7);
    assert_eq!(integer_tick_label(3.0), "3");
    assert_eq!(integer_tick_label(2.5), "");
}

#[test]
fn paper_fonts_are_at_least_eight_points_and_screen_sizes_are_unchanged() {
    let paper = Theme::new(Style::Paper);
    let screen = Theme::new(Style::Screen);
    for size in [13, 14, 15, 16, 18, 22, 24] {
        assert_eq!(screen.font(size), f64::from(size));
        // 8 pt at PAPER_DPI is 8 / 72 * 300 = 33.3 pixels of em; plotters' em is s / 1.24.
        assert!(paper.font(size) / 1.24 >= 8.0 / 72.0 * f64::from(PAPER_DPI));
    }
    assert_eq!(screen.px(20), 20);
    assert_eq!(screen.title("t"), Some("t"));
    assert_eq!(paper.title("t"), None);
}

#[test]
fn a_failed_figure_leaves_the_old_file_and_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    // The final path is a directory that is not empty: the figure is drawn completely into
    // its partial file, and the rename over the directory fails.
    let path = dir.path().join("fig.svg");
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("keep"), "old").unwrap();
    let error = error_bar_chart(&path, &[panel("share", (0.0, 1.0))], Style::Paper)
        .unwrap_err()
        .to_string();
    assert!(error.contains("fig.svg"), "{error}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["fig.svg"], "a partial file was left");
    assert_eq!(std::fs::read_to_string(path.join("keep")).unwrap(), "old");
    // An existing file keeps its old contents when the writer fails half-way.
    let csv = dir.path().join("data.csv");
    std::fs::write(&csv, "old").unwrap();
    let failed = crate::report::output::write_atomically_with(
        &csv,
        |partial| {
            std::fs::write(partial, "ne")?;
            Err(std::io::Error::other("interrupted"))
        },
        |e| e,
    );
    assert!(failed.is_err());
    assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

/// The trend figure's y range is zoomed to its values (the 0..1 range
/// flattened the zigzag of the threshold that is the finding), keeping every value inside.
#[test]
fn trend_threshold_range_is_zoomed_to_the_values() {
    // The reduced run's thresholds and PS peak locations, h = 10..16.
    let ys = [
        0.5747, 0.6953, 0.6133, 0.7060, 0.6396, 0.7093, 0.6572, 0.32, 0.38, 0.37, 0.42, 0.42, 0.45,
        0.45,
    ];
    let (lo, hi) = super::figures::zoomed_range(&ys);
    assert!(ys.iter().all(|&y| lo < y && y < hi), "({lo}, {hi})");
    let span = 0.7093 - 0.32;
    // A margin of 0.05 below, 0.1 above for the legend, each rounded out to 0.05.
    assert!(hi - lo <= span + 0.25, "({lo}, {hi}) is not zoomed");
    assert_eq!(super::figures::zoomed_range(&[]), (0.0, 1.0));
}

/// Two exact lines of one panel (Teague's strong and weak values in the
/// othello figure) were the same black dashes; each now has its own look.
#[test]
fn exact_lines_of_one_panel_look_different() {
    let looks: Vec<_> = (0..3).map(super::style::exact_line_style).collect();
    for i in 0..3 {
        for j in 0..i {
            assert_ne!(looks[i], looks[j]);
        }
    }
}

/// In `domains_local` the panels' series have the same roles (depth pairs)
/// under different labels (one heuristic a panel); a series dashed in one panel because it
/// hides an earlier one is dashed in every panel, so one role has one look.
#[test]
fn series_of_one_role_look_alike_across_panels() {
    let series = |label: &str, ys: [f64; 2]| ErrorSeries {
        label: label.into(),
        points: ys
            .iter()
            .zip(1..)
            .map(|(&y, x)| ErrorPoint {
                x: f64::from(x),
                y,
                low: y,
                high: y,
            })
            .collect(),
    };
    let with = |a: Vec<ErrorSeries>| Panel {
        series: a,
        ..panel("fraction", (0.0, 1.0))
    };
    let panels = [
        with(vec![
            series("manhattan, d = 1", [0.5, 0.5]),
            series("manhattan, d = 2", [0.5, 0.5]),
        ]),
        with(vec![
            series("mopup, d = 1", [0.2, 0.3]),
            series("mopup, d = 2", [0.8, 0.9]),
        ]),
    ];
    let styles = panel_styles(&panels);
    assert!(styles[0][1].dash.is_some(), "the hiding series is dashed");
    assert_eq!(styles[1][1].dash, styles[0][1].dash);
    assert_eq!(styles[1][0].dash, styles[0][0].dash);
}

/// Step labels overlapped the trajectories where these crowd (near the
/// origin of Li & Marsland's Fig. 2). A label is placed only clear of every line by more than
/// its own half height.
#[test]
fn step_labels_keep_clear_of_every_trajectory() {
    // Three trajectories converging on the origin, as in Fig. 2.
    let series: Vec<Vec<(f64, f64)>> = [0.6, 0.75, 0.9]
        .iter()
        .map(|&shrink: &f64| {
            (0..12)
                .map(|k| {
                    let r = shrink.powi(k);
                    (0.9 * r, 0.8 * r.powf(0.7))
                })
                .collect()
        })
        .collect();
    let places = step_label_places(&series);
    let mut placed = 0;
    for label in places.iter().flatten().flatten() {
        placed += 1;
        for s in &series {
            for w in s.windows(2) {
                assert!(
                    segment_distance(*label, w[0], w[1]) >= 0.03 - 1e-12,
                    "{label:?}"
                );
            }
        }
    }
    // Far from the origin there is room for labels.
    assert!(placed >= 6, "{placed}");
}

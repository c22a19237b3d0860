//! Unit tests of `plot/mod.rs` (moved out of it to keep the file under 1,200 lines).

use super::*;

fn panel(y_label: &str, y_range: (f64, f64)) -> Panel {
    Panel {
        axes: Axes {
            title: "t".into(),
            x_label: "search depth".into(),
            y_label: y_label.into(),
            x_range: (0.5, 3.5),
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
    assert_eq!(png_size(&paper), (PAPER_SIZE.0, 2 * PAPER_SIZE.1));
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
    let paper = Theme {
        style: Style::Paper,
    };
    let screen = Theme {
        style: Style::Screen,
    };
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

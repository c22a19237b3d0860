//! Every statement the docs and the help make is checked against what it describes: the
//! README's file count against `plots/INDEX.md`, the tour against the list of subcommands,
//! the help's lists against the code's, quoted numbers against the outputs they quote.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::common::{stdout_of, table_rows};
use crate::readme::{examples, split};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// The help text of `pathology WORDS... --help`.
fn help(words: &[&str]) -> String {
    let mut args: Vec<&str> = words.to_vec();
    args.push("--help");
    stdout_of(&args)
}

/// The commands (their words after `pathology`) of the blocks of a Markdown file that the
/// README test runs.
fn executed_commands(text: &str) -> Vec<Vec<String>> {
    examples(text)
        .into_iter()
        .flat_map(|(_, _, list)| list)
        .map(|example| example.words[1..].to_vec())
        .collect()
}

/// The output shown under `$ pathology COMMAND` in `text` (the lines up to the next `$` line
/// or the end of the block).
fn shown_output(text: &str, command: &str) -> String {
    let words = split(command);
    examples(text)
        .into_iter()
        .flat_map(|(_, _, list)| list)
        .find(|example| example.words == words)
        .unwrap_or_else(|| panic!("no executed block runs `{command}`"))
        .expected
        .join("\n")
}

/// Every leaf subcommand of the parser, as its words (`["mc", "uct"]`), `help` excluded.
fn leaf_subcommands() -> Vec<Vec<String>> {
    fn walk(command: &clap::Command, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        let children: Vec<&clap::Command> = command
            .get_subcommands()
            .filter(|c| c.get_name() != "help")
            .collect();
        // A command with subcommands that also runs on its own (`errprop`) is a leaf too.
        let runs_alone = !command.is_subcommand_required_set();
        if (children.is_empty() || runs_alone) && !path.is_empty() {
            out.push(path.clone());
        }
        for child in children {
            path.push(child.get_name().to_string());
            walk(child, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(&pathology::cli::command(), &mut Vec::new(), &mut out);
    out
}

/// The rows of the tour's table "Commands shown on other pages": each backquoted command of
/// the first cell (`mc kalah` after a full `pathology mc emm-figures` keeps the prefix
/// `pathology`), with the second cell.
fn other_pages(tour: &str) -> Vec<(Vec<String>, String)> {
    let section = tour
        .split("## Commands shown on other pages")
        .nth(1)
        .expect("the tour ends with the table of commands shown on other pages");
    let mut rows = Vec::new();
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 2, "{line}");
        for quoted in cells[0].split('`').skip(1).step_by(2) {
            let mut words = split(quoted);
            if words.first().is_some_and(|w| w == "pathology") {
                words.remove(0);
            }
            rows.push((words, cells[1].trim().to_string()));
        }
    }
    rows
}

/// The Markdown file a table cell links to (`[uct.md](uct.md)` from `docs/`).
fn linked_page(cell: &str) -> Option<PathBuf> {
    let at = cell.find("](")?;
    let rest = &cell[at + 2..];
    let target = &rest[..rest.find(')')?];
    Some(root().join("docs").join(target))
}

/// Whether `command` (the words after `pathology`) is an instance of `pattern` (a subcommand
/// path, possibly with options such as `decision --game crit`).
fn is_instance(command: &[String], pattern: &[String]) -> bool {
    let depth = pattern.iter().take_while(|w| !w.starts_with('-')).count();
    if command.len() < depth || command[..depth] != pattern[..depth] {
        return false;
    }
    let mut node = pathology::cli::command();
    for word in &pattern[..depth] {
        node = node.find_subcommand(word).unwrap().clone();
    }
    // The next word must not be a further subcommand (`errprop` is not `errprop figures`).
    if command
        .get(depth)
        .is_some_and(|next| node.find_subcommand(next).is_some())
    {
        return false;
    }
    pattern[depth..].chunks(2).all(|pair| {
        command
            .windows(2)
            .any(|w| w[0] == pair[0] && pair.get(1).is_none_or(|v| &w[1] == v))
    })
}

/// The tour shows every subcommand, and every `--game` of `decision`, with an executed block
/// (run by the README test, which checks the output), or names the page that does; a command
/// not run by the tests says why, and there are few of them.
#[test]
fn every_subcommand_has_an_executed_block_in_the_tour_or_its_page() {
    let tour = read("docs/tour.md");
    let in_tour = executed_commands(&tour);
    let pages = other_pages(&tour);
    let mut wanted: Vec<Vec<String>> = leaf_subcommands();
    for game in pathology::cli::command()
        .find_subcommand("decision")
        .unwrap()
        .get_arguments()
        .find(|a| a.get_id() == "game")
        .unwrap()
        .get_possible_values()
    {
        wanted.push(vec![
            "decision".into(),
            "--game".into(),
            game.get_name().to_string(),
        ]);
    }
    let mut missing = Vec::new();
    let mut not_run = Vec::new();
    for pattern in &wanted {
        if in_tour.iter().any(|c| is_instance(c, pattern)) {
            continue;
        }
        let row = pages.iter().find(|(words, _)| words == pattern);
        let Some((_, cell)) = row else {
            missing.push(format!(
                "{} (neither in the tour nor in its table)",
                pattern.join(" ")
            ));
            continue;
        };
        if cell.starts_with("not run by the tests: ") {
            not_run.push(pattern.join(" "));
            continue;
        }
        let page = linked_page(cell).unwrap_or_else(|| panic!("no page linked in `{cell}`"));
        let text = std::fs::read_to_string(&page).unwrap();
        if !executed_commands(&text)
            .iter()
            .any(|c| is_instance(c, pattern))
        {
            missing.push(format!(
                "{} (no executed block in {})",
                pattern.join(" "),
                page.display()
            ));
        }
    }
    assert!(missing.is_empty(), "not shown:\n{}", missing.join("\n"));
    assert!(
        not_run.len() <= 3,
        "too many commands are not run by the tests: {not_run:?}"
    );
    // Every row of the table names a real command (no stale rows).
    for (words, _) in &pages {
        assert!(
            wanted.iter().any(|w| w == words),
            "the tour's table names `{}`, which is no subcommand",
            words.join(" ")
        );
    }
}

/// The README's "writes N files" is the number `reproduce` writes: the files that
/// `plots/INDEX.md` lists, and INDEX.md itself, which is what `plots/` holds.
#[test]
fn the_readme_s_file_count_is_index_md_s() {
    let listed = read("plots/INDEX.md")
        .lines()
        .filter(|l| l.starts_with("| ["))
        .count();
    let on_disk = std::fs::read_dir(root().join("plots")).unwrap().count();
    assert_eq!(on_disk, listed + 1, "plots/ against plots/INDEX.md");
    let readme = read("README.md");
    let claimed: Vec<usize> = readme
        .match_indices(" files")
        .filter_map(|(at, _)| readme[..at].rsplit(' ').next()?.parse().ok())
        .collect();
    assert_eq!(claimed, vec![listed + 1], "the README's file counts");
    assert!(
        prose(&readme).contains(&format!("the {listed} that `plots/INDEX.md` lists")),
        "the README says how many files INDEX.md lists"
    );
    // One measured time, in the README; the help does not state another.
    assert!(!help(&["reproduce"]).contains("minute"));
}

/// `validate` reads the kinds of one list in the code; its help, its page and its error name
/// every one of them, and the `mc` commands whose output it reads.
#[test]
fn validate_names_the_code_s_kinds_everywhere() {
    use pathology::validate::{KINDS, WRITTEN_BY};
    let text = help(&["validate"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let page = read("docs/validate.md");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.csv");
    std::fs::write(&file, "kind,estimate,trials\nnone,0.5,2\n").unwrap();
    let run = crate::common::pathology()
        .arg("validate")
        .arg(&file)
        .output()
        .unwrap();
    let error =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    for kind in KINDS {
        assert!(
            text.contains(&format!("{kind} (")),
            "validate --help lacks kind {kind}"
        );
        assert!(
            page.contains(&format!("| `{kind}` |")),
            "docs/validate.md lacks kind {kind}"
        );
        assert!(error.contains(kind), "the error lacks kind {kind}: {error}");
    }
    // The help's list of `mc` commands read as they are is the code's list.
    let listed = text
        .split("`pathology mc ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .expect("validate --help names the mc commands it reads");
    let listed: BTreeSet<String> = listed.split('|').map(|c| format!("mc {c}")).collect();
    let code: BTreeSet<String> = WRITTEN_BY.iter().map(|(c, _)| c.to_string()).collect();
    assert_eq!(listed, code, "validate --help");
    let mut kinds_written: Vec<&str> = WRITTEN_BY
        .iter()
        .flat_map(|(_, k)| k.iter().copied())
        .collect();
    kinds_written.sort_unstable();
    for (command, _) in WRITTEN_BY {
        assert!(
            page.contains(&format!("`{command}`"))
                || page.contains(&format!("`pathology {command}")),
            "docs/validate.md lacks {command}"
        );
    }
    // Each command's own rows carry those kinds.
    for kind in kinds_written {
        assert!(KINDS.contains(&kind), "{kind}");
    }
}

/// Every `--format` help says where CSV's manifest goes (beside it), not "in comment lines",
/// and Markdown's is not in an HTML comment.
#[test]
fn the_format_help_says_where_the_manifest_goes() {
    for words in [vec!["table"], vec!["mc", "dgame"], vec!["decision"]] {
        let text = help(&words);
        assert!(!text.contains("manifest in `#` comment lines"), "{words:?}");
        assert!(!text.contains("HTML comment"), "{words:?}");
        assert!(text.contains("NAME.csv.manifest.json"), "{words:?}");
    }
}

/// The Markdown manifest's `command:` line is the command exactly, so it pastes back into a
/// shell, and it is not inside an HTML comment.
#[test]
fn the_markdown_manifest_s_command_line_is_exact() {
    let markdown = stdout_of(&["table", "1", "--exact", "--format", "markdown"]);
    assert!(!markdown.contains("<!--"), "{markdown}");
    assert!(!markdown.contains('\u{2060}'), "{markdown}");
    let command = markdown
        .lines()
        .find_map(|l| l.strip_prefix("command: "))
        .expect("a command line");
    assert_eq!(command, "pathology table 1 --exact");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["table", "1", "--exact", "--format", "json"])).unwrap();
    assert_eq!(json["manifest"]["command"], command);
    // The block is a fenced block that no manifest line closes.
    let fence_line = markdown.lines().find(|l| l.starts_with("```")).unwrap();
    assert_eq!(fence_line, "```text");
}

/// `threshold --help` says what is certified: grid points only.
#[test]
fn the_threshold_help_says_only_grid_points_are_checked() {
    let top = stdout_of(&["--help"]);
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("threshold "))
        .unwrap();
    assert!(
        !line.contains("above which no depth is pathological"),
        "{line}"
    );
    assert!(line.contains("grid"), "{line}");
    let own = help(&["threshold"]);
    assert!(own.contains("Only grid points"), "{own}");
}

/// The numbers docs/domains.md quotes about KRK are those of the block it shows.
#[test]
fn domains_md_quotes_the_krk_block() {
    let page = read("docs/domains.md");
    let output = shown_output(&page, "pathology domain krk --depth 1..6 --table accuracy");
    let worse: Vec<f64> = output
        .lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<u32>().is_ok())
        })
        .map(|l| l.split_whitespace().last().unwrap().parse().unwrap())
        .collect();
    assert_eq!(worse.len(), 6, "{output}");
    let (lo, hi) = worse
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let text = page.split_whitespace().collect::<Vec<_>>().join(" ");
    let claim = format!(
        "between {:.1}% and {:.1}% of the positions are locally pathological",
        lo * 100.0,
        hi * 100.0
    );
    assert!(text.contains(&claim), "docs/domains.md should say: {claim}");
}

/// Every command the README names (outside its executed blocks, which the README test runs)
/// is accepted as written by the real parser: no placeholder, no missing required option.
#[test]
fn every_command_in_the_readme_parses_as_written() {
    let readme = read("README.md");
    let mut fence = false;
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in readme.lines() {
        if line.starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        for quoted in line.split('`').skip(1).step_by(2) {
            // The bare name (`pathology` on your PATH) is not a command line.
            if !quoted.starts_with("pathology ") {
                continue;
            }
            checked += 1;
            let words = split(quoted);
            match pathology::cli::command().try_get_matches_from(&words) {
                Ok(_) => {}
                Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {}
                Err(e) => failures.push(format!("`{quoted}`: {}", e.kind())),
            }
        }
    }
    assert!(checked >= 30, "only {checked} commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The rows (first word a depth) of a text table in `output`, as their whitespace-separated
/// cells.
fn depth_rows(output: &str) -> Vec<Vec<String>> {
    output
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|cells| cells.first().is_some_and(|w| w.parse::<u32>().is_ok()))
        .collect()
}

/// The prose of a page with its line breaks (and the list bullets' indentation) made spaces
/// and its bold and italic marks removed.
fn prose(page: &str) -> String {
    page.replace('*', "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// docs/why_minimax.md's sentence on the bias by depth quotes the block below it.
#[test]
fn why_minimax_quotes_the_bias_of_its_cell() {
    let page = read("docs/why_minimax.md");
    let command = page
        .lines()
        .find(|l| l.starts_with("$ pathology decision --game sum"))
        .unwrap()
        .trim_start_matches("$ ");
    let rows = depth_rows(&shown_output(&page, command));
    let bias = |d: usize| -> f64 { rows[d - 1][4].parse().unwrap() };
    let h = rows.len();
    let list = |depths: Vec<usize>| -> String {
        let values: Vec<String> = depths.iter().map(|&d| format!("{:.3}", bias(d))).collect();
        let names: Vec<String> = depths.iter().map(usize::to_string).collect();
        format!("({} at d = {})", values.join(", "), names.join(", "))
    };
    let odd: Vec<usize> = (1..h).step_by(2).collect();
    let even: Vec<usize> = (2..h).step_by(2).collect();
    // What the sentence says: the odd depths shrink in size, the even ones grow.
    assert!(odd.windows(2).all(|w| bias(w[1]).abs() < bias(w[0]).abs()));
    assert!(even.windows(2).all(|w| bias(w[1]).abs() > bias(w[0]).abs()));
    let text = prose(&page);
    assert!(
        text.contains(&list(odd)),
        "{}",
        list((1..h).step_by(2).collect())
    );
    assert!(
        text.contains(&list(even)),
        "{}",
        list((2..h).step_by(2).collect())
    );
    assert!(!text.contains("does not grow with depth"));
}

/// docs/uct.md's sentence on the quantization (1000 against 2000 bins) says what the table it
/// follows shows.
#[test]
fn uct_md_states_the_quantization_the_table_shows() {
    let page = read("docs/uct.md");
    let block = page
        .split("$ pathology mc uct --branching 5 --gamma 1 --sigma 1")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let units = block
        .lines()
        .filter(|l| l.starts_with("minimax "))
        .map(|l| {
            let cells: Vec<f64> = l
                .split_whitespace()
                .rev()
                .take(2)
                .map(|c| c.parse().unwrap())
                .collect();
            ((cells[0] - cells[1]).abs() * 1e4).round() as u32
        })
        .max()
        .unwrap();
    assert_eq!(
        units, 1,
        "the table's largest difference in units of the fourth decimal"
    );
    let text = prose(&page);
    assert!(text.contains("differs from it by at most one unit in the fourth decimal"));
    assert!(!text.contains("invisible at four decimals"));
}

/// docs/chi_nau_ballard_kalah.md's account of the kalah gap is what `mc kalah` prints: the
/// ratios to the paper's rhf(4), product's win range, and the verdicts of the order and of the
/// paper's values.
#[test]
fn the_kalah_gap_paragraph_is_what_mc_kalah_prints() {
    let json = crate::common::json_of(&[
        "mc", "kalah", "--boards", "1000", "--seed", "20261121", "--format", "json",
    ]);
    let table = |name: &str| table_rows(&json, name);
    let rows = table("kalah");
    let f = |row: &serde_json::Value, key: &str| row[key].as_f64().unwrap();
    let ratios: Vec<f64> = rows
        .iter()
        .map(|r| f(r, "rhf") / f(r, "paper_rhf"))
        .collect();
    let wins: Vec<f64> = rows.iter().map(|r| f(r, "product_share")).collect();
    let paper: Vec<f64> = rows.iter().map(|r| f(r, "paper_product_share")).collect();
    let range = |v: &[f64]| {
        v.iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)))
    };
    let (r_lo, r_hi) = range(&ratios);
    let (w_lo, w_hi) = range(&wins);
    let (p_lo, p_hi) = range(&paper);
    let claims = table("claims");
    let verdicts = |family: &str, verdict: &str| {
        claims
            .iter()
            .filter(|c| {
                c["family"].as_str().unwrap().starts_with(family) && c["verdict"] == verdict
            })
            .count()
    };
    let text = prose(&read("docs/chi_nau_ballard_kalah.md"));
    for expected in [
        format!(
            "all {} undecided",
            verdicts("kalah: rhf(4) in the order", "undecided")
        ),
        format!("{r_lo:.2} to {r_hi:.2} times the paper's values"),
        format!(
            "product wins {:.1}% to {:.1}% of the games where the paper has {:.1}% to {:.1}%",
            w_lo * 100.0,
            w_hi * 100.0,
            p_lo * 100.0,
            p_hi * 100.0
        ),
        format!(
            "({} fail, {} undecided)",
            verdicts("kalah: the paper's values", "fails"),
            verdicts("kalah: the paper's values", "undecided")
        ),
    ] {
        assert!(
            text.contains(&expected),
            "docs/chi_nau_ballard_kalah.md should say: {expected}"
        );
    }
    // "only those at w = 1 are shown to differ"
    assert!(claims.iter().all(|c| {
        c["verdict"] != "fails"
            || !c["family"]
                .as_str()
                .unwrap()
                .starts_with("kalah: the paper's values")
            || c["claim"].as_str().unwrap().starts_with("w = 1:")
    }));
    assert!(!text.contains("1.3-1.5"));
}

/// docs/domains.md states what a re-implementation needs: the rounding of `--levels`, the
/// noise's reach, the terminal scoring, the claims' depth window and the `room` ranges the
/// `endgame` table prints; its introduction is not repeated.
#[test]
fn domains_md_states_every_setting() {
    let text = prose(&read("docs/domains.md"));
    for needed in [
        "a value halfway between two levels rounded up",
        "never added to the goal",
        "nor to a chess terminal position",
        "at the frontier too",
        "also uses the decisions of depth D + 1",
        "(a queen's diagonals are not counted)",
        "Chebyshev (king-move) distance",
    ] {
        assert!(text.contains(needed), "docs/domains.md lacks: {needed}");
    }
    for (endgame, name) in [("krk", "KRK"), ("kqk", "KQK")] {
        let json = crate::common::json_of(&[
            "domain",
            endgame,
            "--heuristic",
            "room",
            "--depth",
            "1",
            "--format",
            "json",
        ]);
        let facts = json["tables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "endgame")
            .unwrap()["rows"]
            .as_array()
            .unwrap()
            .clone();
        let fact = |label: &str| {
            facts
                .iter()
                .find(|r| r["fact"].as_str().unwrap().contains(label))
                .unwrap()["value"]
                .as_i64()
                .unwrap()
        };
        let range = format!("{}..{} in {name}", fact("(lo)"), fact("(hi)"));
        assert!(text.contains(&range), "docs/domains.md should say {range}");
    }
    assert_eq!(
        text.matches("asked whether lookahead pathology occurs")
            .count(),
        1,
        "the introduction is repeated"
    );
}

/// docs/findings.md's sentence on where the last pathological pair lies is what its table
/// shows at the two ends.
#[test]
fn findings_md_places_the_last_pair_as_its_table_does() {
    let page = read("docs/findings.md");
    let rows: Vec<(u32, u32, u32)> = page
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            let h: u32 = cells.first()?.parse().ok()?;
            let pair = cells.get(2)?.trim_matches(|c| c == '(' || c == ')');
            let (a, b) = pair.split_once(',')?;
            Some((h, a.parse().ok()?, b.parse().ok()?))
        })
        .collect();
    assert_eq!(rows.len(), 13, "{rows:?}");
    let levels = |(h, a, b): (u32, u32, u32)| format!("{}-{}", h - b, h - a);
    let (first, last) = (rows[0], rows[rows.len() - 1]);
    let text = prose(&page);
    let claim = format!(
        "from {} levels above the leaves at h = {} to {} at h = {}",
        levels(first),
        first.0,
        levels(last),
        last.0
    );
    assert!(
        text.contains(&claim),
        "docs/findings.md should say: {claim}"
    );
    assert!(!text.contains("three to four levels"));
}

/// A test that does not reject is "no difference detected", never "agrees": in `validate`'s
/// verdicts and in the docs' account of the cross-validation table, whose count is the
/// number of rows `reproduce` checks.
#[test]
fn a_test_that_does_not_reject_is_no_difference_detected() {
    // The example has one biased row, so validate exits 1.
    let run = crate::common::pathology()
        .arg("validate")
        .arg(root().join("examples/validate_input.csv"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let words: BTreeSet<String> = json["tables"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| [r["verdict"].clone(), r["holm_verdict"].clone()])
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    let expected: BTreeSet<String> = ["no difference detected", "disagrees"]
        .map(String::from)
        .into();
    assert_eq!(words, expected);
    let rows = read("plots/crossval_input.csv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count()
        - 1;
    let reruns = prose(&read("docs/reruns.md"));
    assert!(reruns.contains(&format!("for none of the {rows} is a difference detected")));
    assert!(!reruns.contains(&format!("all {rows} agree")));
    let distributions = prose(&read("docs/distributions.md"));
    assert!(distributions.contains(&format!("for any of the table's {rows} estimates")));
    assert!(!distributions.contains("every row agrees"));
}

/// Internal names a reader cannot use: an issue number, rustdoc link syntax, a module path.
fn internal_names(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let lower = text.to_lowercase();
    for (at, _) in lower.match_indices("issue ") {
        if lower[at + 6..].starts_with(|c: char| c.is_ascii_digit()) {
            found.push(text[at..(at + 9).min(text.len())].to_string());
        }
    }
    if let Some(at) = text.find("[`") {
        found.push(text[at..(at + 30).min(text.len())].to_string());
    }
    for word in text.split(|c: char| c.is_whitespace() || "(),;`'\"".contains(c)) {
        let parts: Vec<&str> = word.split("::").collect();
        if parts.len() >= 2
            && parts
                .iter()
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            found.push(word.to_string());
        }
    }
    found
}

/// The help of every command, and the step labels `reproduce` prints, name nothing internal.
#[test]
fn no_internal_names_in_help_or_step_labels() {
    fn walk(command: &mut clap::Command, path: String, out: &mut Vec<String>) {
        let text = command.render_long_help().to_string();
        for name in internal_names(&text) {
            out.push(format!("{path} --help: {name}"));
        }
        for child in command.get_subcommands_mut() {
            let name = child.get_name().to_string();
            walk(child, format!("{path} {name}"), out);
        }
    }
    let mut found = Vec::new();
    let mut command = pathology::cli::command();
    command.build();
    walk(&mut command, "pathology".to_string(), &mut found);
    for artefact in pathology::reproduce::ARTEFACTS {
        for name in internal_names(artefact.label) {
            found.push(format!("reproduce step '{}': {name}", artefact.label));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert_eq!(
        internal_names("see analytic::distributions::critical_column"),
        ["analytic::distributions::critical_column"]
    );
    assert_eq!(internal_names("(issue 36)").len(), 1);
}

/// The notes of the studies' outputs name no module either (they pointed readers to
/// `pathology::studies::...` and `analytic::distributions::...`).
#[test]
fn no_internal_names_in_the_notes_of_study_outputs() {
    let mut found = Vec::new();
    for args in [
        vec!["mc", "uct", "--games", "20", "--format", "json"],
        vec!["mc", "kalah", "--boards", "20", "--format", "json"],
        vec![
            "mc",
            "othello",
            "--openings",
            "4",
            "--depth",
            "1",
            "--format",
            "json",
        ],
        vec!["mc", "ballard", "--trials", "200", "--format", "json"],
        vec![
            "mc",
            "kalah-gap",
            "--boards",
            "20",
            "--variant",
            "default",
            "--format",
            "json",
        ],
    ] {
        let json = crate::common::json_of(&args);
        for note in json["notes"].as_array().unwrap() {
            for name in internal_names(note.as_str().unwrap()) {
                found.push(format!("{}: {name}", args.join(" ")));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

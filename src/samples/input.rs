//! Readers of evaluation samples: per-sample rows or per-problem counts, CSV or JSONL,
//! streamed and aggregated per problem as they are read.
//!
//! Every malformed thing is refused with [`Error::InvalidArgument`] naming the file, the
//! line and the column, before any computation: an empty file, a header without rows, a
//! missing column, a row with the wrong number of fields, a `correct` that is not 0, 1,
//! `true` or `false`, a score that is not a finite number, a count `c` or `n` that is not a
//! whole number, `c > n`, `n = 0` (a problem with no samples), a problem id given twice in
//! a count file, and two samples of one problem with the same answer and different
//! `correct` (both lines named). A UTF-8 byte-order mark and CRLF line ends are accepted.
//!
//! Memory: a per-sample file is never held whole; each row updates its problem's aggregate
//! (sample and correct counts, one entry per distinct answer, one per distinct score), so a
//! file of a million rows needs memory in proportion to the problems and their distinct
//! answers and scores, not to the rows.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::error::{Error, Result};

/// The two file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InputFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line (JSON Lines).
    Jsonl,
}

impl InputFormat {
    /// The format a file's extension names: `.csv`, or `.jsonl` / `.json-lines` / `.ndjson`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidArgument`] naming `--input-format` when the extension is none of them.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::samples::input::InputFormat;
    /// use std::path::Path;
    /// assert_eq!(InputFormat::detect(Path::new("a.CSV")).unwrap(), InputFormat::Csv);
    /// assert_eq!(InputFormat::detect(Path::new("a.json-lines")).unwrap(), InputFormat::Jsonl);
    /// assert!(InputFormat::detect(Path::new("a.txt")).is_err());
    /// ```
    pub fn detect(path: &Path) -> Result<InputFormat> {
        let name = path.to_string_lossy().to_ascii_lowercase();
        if name.ends_with(".csv") {
            Ok(InputFormat::Csv)
        } else if name.ends_with(".jsonl")
            || name.ends_with(".json-lines")
            || name.ends_with(".ndjson")
        {
            Ok(InputFormat::Jsonl)
        } else {
            Err(Error::invalid(
                "--input-format",
                "given (csv or jsonl) when the file name does not end in .csv, .jsonl, \
                 .json-lines or .ndjson",
                format!("nothing for {}", path.display()),
            ))
        }
    }
}

/// The column names to read (the defaults are `problem`, `correct`, `answer`, `score`, `c`
/// and `n`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Columns {
    /// The problem id.
    pub problem: String,
    /// Whether a sample is correct (per-sample files).
    pub correct: String,
    /// The sample's answer (optional column).
    pub answer: String,
    /// The sample's score (optional column).
    pub score: String,
    /// The number of correct samples (count files).
    pub c: String,
    /// The number of samples (count files).
    pub n: String,
}

impl Default for Columns {
    fn default() -> Self {
        Columns {
            problem: "problem".into(),
            correct: "correct".into(),
            answer: "answer".into(),
            score: "score".into(),
            c: "c".into(),
            n: "n".into(),
        }
    }
}

/// One distinct answer of a problem: how many samples gave it and whether it is correct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerGroup {
    /// Samples with this answer.
    pub count: u64,
    /// Whether the answer is correct.
    pub correct: bool,
}

/// One score level of a problem: samples with this score and how many of them are correct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreLevel {
    /// Samples at this score (`a_s`).
    pub count: u64,
    /// Correct samples among them (`c_s`).
    pub correct: u64,
}

/// One problem's aggregate.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Its id.
    pub id: String,
    /// Samples `n`.
    pub n: u64,
    /// Correct samples `c`.
    pub c: u64,
    /// The distinct answers (per-sample files with an answer column), in the order they
    /// first appear; samples without an answer are not in a group.
    pub answers: Vec<AnswerGroup>,
    /// The score levels in increasing order of score (per-sample files with a score column).
    pub scores: Vec<ScoreLevel>,
}

impl Problem {
    /// Samples with no answer (`n` less the samples of every answer group).
    pub fn abstentions(&self) -> u64 {
        self.n - self.answers.iter().map(|g| g.count).sum::<u64>()
    }
}

/// What a file held.
#[derive(Debug, Clone, PartialEq)]
pub struct Samples {
    /// The file as the user named it.
    pub source: String,
    /// Whether it held per-sample rows (else per-problem counts).
    pub per_sample: bool,
    /// Whether it had an answer column (majority@k is defined).
    pub has_answers: bool,
    /// Whether it had a score column (best-of-k is defined).
    pub has_scores: bool,
    /// The data rows read.
    pub rows: u64,
    /// The problems in the order they first appear.
    pub problems: Vec<Problem>,
}

impl Samples {
    /// The per-problem counts `(c, n)`, what `samples fit` and `samples beyond` take.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::samples::input::{Columns, read_text, InputFormat};
    /// let s = read_text("t.csv", "problem,c,n\na,1,4\nb,0,4\n", InputFormat::Csv, &Columns::default()).unwrap();
    /// assert_eq!(s.counts(), vec![(1, 4), (0, 4)]);
    /// ```
    pub fn counts(&self) -> Vec<(u64, u64)> {
        self.problems.iter().map(|p| (p.c, p.n)).collect()
    }
}

/// Keeps the problems of `shard`: positions `shard.range(P)` of the ids sorted by their
/// bytes (the file's order kept among them).
///
/// # Examples
///
/// ```
/// use pathology::samples::input::{Columns, InputFormat, read_text};
/// use pathology::samples::input::select_shard;
/// use pathology::sim::runner::Shard;
/// let text = "problem,c,n\nd,1,2\nb,1,2\na,0,2\nc,2,2\n";
/// let mut s = read_text("t.csv", text, InputFormat::Csv, &Columns::default()).unwrap();
/// select_shard(&mut s, Shard::parse("2/2").unwrap());
/// let ids: Vec<&str> = s.problems.iter().map(|p| p.id.as_str()).collect();
/// assert_eq!(ids, ["d", "c"]); // the sorted ids are a b | c d
/// ```
pub fn select_shard(samples: &mut Samples, shard: crate::sim::runner::Shard) {
    let mut order: Vec<usize> = (0..samples.problems.len()).collect();
    order.sort_by(|&a, &b| samples.problems[a].id.cmp(&samples.problems[b].id));
    let mut keep = vec![false; order.len()];
    let range = shard.range(order.len() as u64);
    for &p in &order[range.start as usize..range.end as usize] {
        keep[p] = true;
    }
    let mut index = 0;
    samples.problems.retain(|_| {
        index += 1;
        keep[index - 1]
    });
}

/// Reads a file of samples or counts ([`InputFormat::detect`] when `format` is `None`);
/// `-` is standard input (its format given: there is no extension to detect it from).
///
/// # Errors
///
/// [`Error::InvalidArgument`] naming the file (and line and column) for a file that cannot
/// be read or anything malformed in it (the module docs list each case).
pub fn read(path: &Path, format: Option<InputFormat>, columns: &Columns) -> Result<Samples> {
    let format = match format {
        Some(f) => f,
        None => InputFormat::detect(path)?,
    };
    let name = path.display().to_string();
    if name == "-" {
        return read_from(
            &name,
            crate::report::render::stdin_reader(),
            format,
            columns,
        );
    }
    let file = std::fs::File::open(path).map_err(|e| {
        Error::invalid(
            &format!("input file {name}"),
            "a readable file",
            format!("an error: {e}"),
        )
    })?;
    read_from(&name, BufReader::new(file), format, columns)
}

/// Reads samples or counts from text ([`read`] without a file; tests and the docs).
///
/// # Errors
///
/// As [`read`].
pub fn read_text(
    name: &str,
    text: &str,
    format: InputFormat,
    columns: &Columns,
) -> Result<Samples> {
    read_from(name, text.as_bytes(), format, columns)
}

/// A place in the input: file, line and (optionally) column.
fn place(file: &str, line: u64, column: Option<&str>) -> String {
    match column {
        Some(c) => format!("{file}, line {line}, column {c}"),
        None => format!("{file}, line {line}"),
    }
}

/// One row's fields as read from either format.
struct Row {
    line: u64,
    problem: Option<String>,
    correct: Option<Field>,
    answer: Option<Field>,
    score: Option<Field>,
    c: Option<Field>,
    n: Option<Field>,
}

/// A field's value: text (CSV, or a JSON string), a JSON number, a JSON boolean, or null
/// (an empty CSV field is text "").
#[derive(Debug, Clone)]
enum Field {
    Text(String),
    Number(serde_json::Number),
    Bool(bool),
    Null,
}

impl Field {
    fn shown(&self) -> String {
        match self {
            Field::Text(t) => format!("{t:?}"),
            Field::Number(n) => n.to_string(),
            Field::Bool(b) => b.to_string(),
            Field::Null => "null".into(),
        }
    }

    fn is_empty(&self) -> bool {
        match self {
            Field::Text(t) => t.trim().is_empty(),
            Field::Null => true,
            _ => false,
        }
    }
}

/// The aggregator every row goes through.
struct Aggregate<'a> {
    file: &'a str,
    columns: &'a Columns,
    per_sample: bool,
    has_answers: bool,
    has_scores: bool,
    rows: u64,
    index: HashMap<String, usize>,
    problems: Vec<Building>,
}

/// A problem being read: the first line of each answer (to name both lines of a
/// contradiction) and the scores by their bit pattern (ordered at the end).
struct Building {
    id: String,
    first_line: u64,
    n: u64,
    c: u64,
    answers: HashMap<String, (usize, u64)>,
    groups: Vec<AnswerGroup>,
    scores: BTreeMap<OrderedScore, ScoreLevel>,
}

/// A finite score ordered as a number (`-0` is `0`).
#[derive(Debug, Clone, Copy, PartialEq)]
struct OrderedScore(f64);

impl PartialOrd for OrderedScore {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Eq for OrderedScore {}

impl Ord for OrderedScore {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl<'a> Aggregate<'a> {
    fn missing(&self, what: &str, line: u64) -> Error {
        Error::invalid(
            &place(self.file, line, Some(what)),
            "present in every row",
            "nothing",
        )
    }

    fn whole(&self, field: &Field, column: &str, line: u64) -> Result<u64> {
        let bad = || {
            Error::invalid(
                &place(self.file, line, Some(column)),
                "a whole number at least 0",
                field.shown(),
            )
        };
        match field {
            Field::Text(t) => t.trim().parse::<u64>().map_err(|_| bad()),
            Field::Number(n) => {
                if let Some(v) = n.as_u64() {
                    Ok(v)
                } else {
                    match n.as_f64() {
                        Some(x) if x >= 0.0 && x.fract() == 0.0 && x < 9.0e15 => Ok(x as u64),
                        _ => Err(bad()),
                    }
                }
            }
            _ => Err(bad()),
        }
    }

    fn push(&mut self, mut row: Row) -> Result<()> {
        self.rows += 1;
        let line = row.line;
        let id = match row.problem.take() {
            Some(id) if !id.trim().is_empty() => id,
            Some(_) => {
                return Err(Error::invalid(
                    &place(self.file, line, Some(&self.columns.problem)),
                    "a non-empty problem id",
                    "an empty field",
                ));
            }
            None => return Err(self.missing(&self.columns.problem.clone(), line)),
        };
        if self.per_sample {
            self.push_sample(id, line, row)
        } else {
            self.push_count(id, line, row)
        }
    }

    fn push_count(&mut self, id: String, line: u64, row: Row) -> Result<()> {
        let c_name = self.columns.c.clone();
        let n_name = self.columns.n.clone();
        let c = row.c.ok_or_else(|| self.missing(&c_name, line))?;
        let n = row.n.ok_or_else(|| self.missing(&n_name, line))?;
        let c = self.whole(&c, &c_name, line)?;
        let n = self.whole(&n, &n_name, line)?;
        if n == 0 {
            return Err(Error::invalid(
                &place(self.file, line, Some(&n_name)),
                "at least 1 (a problem with no samples has no curve)",
                0,
            ));
        }
        if c > n {
            return Err(Error::invalid(
                &place(self.file, line, Some(&c_name)),
                &format!("at most n = {n}"),
                c,
            ));
        }
        if let Some(&k) = self.index.get(&id) {
            return Err(Error::invalid(
                &place(self.file, line, Some(&self.columns.problem)),
                "a problem id that appears once in a count file",
                format!("{id:?}, already on line {}", self.problems[k].first_line),
            ));
        }
        self.index.insert(id.clone(), self.problems.len());
        self.problems.push(Building {
            id,
            first_line: line,
            n,
            c,
            answers: HashMap::new(),
            groups: Vec::new(),
            scores: BTreeMap::new(),
        });
        Ok(())
    }

    fn push_sample(&mut self, id: String, line: u64, row: Row) -> Result<()> {
        let columns = self.columns;
        let correct_field = row
            .correct
            .ok_or_else(|| self.missing(&columns.correct, line))?;
        let correct = match &correct_field {
            Field::Bool(b) => *b,
            Field::Number(n) if n.as_u64() == Some(0) => false,
            Field::Number(n) if n.as_u64() == Some(1) => true,
            Field::Text(t) => match t.trim().to_ascii_lowercase().as_str() {
                "0" | "false" => false,
                "1" | "true" => true,
                _ => return Err(bad_correct(self.file, line, columns, &correct_field)),
            },
            _ => return Err(bad_correct(self.file, line, columns, &correct_field)),
        };
        let answer = if self.has_answers {
            match row.answer {
                None => return Err(self.missing(&columns.answer, line)),
                Some(f) if f.is_empty() => None,
                Some(Field::Text(t)) => Some(t),
                Some(Field::Number(n)) => Some(n.to_string()),
                Some(Field::Bool(b)) => Some(b.to_string()),
                Some(Field::Null) => None,
            }
        } else {
            None
        };
        if self.has_answers && answer.is_none() && correct {
            return Err(Error::invalid(
                &place(self.file, line, Some(&columns.correct)),
                &format!(
                    "0 for a sample with no answer (an empty or null {}: it cannot be correct)",
                    columns.answer
                ),
                correct_field.shown(),
            ));
        }
        let score = if self.has_scores {
            let field = row
                .score
                .ok_or_else(|| self.missing(&columns.score, line))?;
            let bad = || {
                Error::invalid(
                    &place(self.file, line, Some(&columns.score)),
                    "a finite number",
                    field.shown(),
                )
            };
            let x = match &field {
                Field::Number(n) => n.as_f64().ok_or_else(bad)?,
                Field::Text(t) => t.trim().parse::<f64>().map_err(|_| bad())?,
                _ => return Err(bad()),
            };
            if !x.is_finite() {
                return Err(bad());
            }
            Some(if x == 0.0 { 0.0 } else { x })
        } else {
            None
        };
        let k = match self.index.get(&id) {
            Some(&k) => k,
            None => {
                self.index.insert(id.clone(), self.problems.len());
                self.problems.push(Building {
                    id,
                    first_line: line,
                    n: 0,
                    c: 0,
                    answers: HashMap::new(),
                    groups: Vec::new(),
                    scores: BTreeMap::new(),
                });
                self.problems.len() - 1
            }
        };
        let problem = &mut self.problems[k];
        problem.n += 1;
        problem.c += u64::from(correct);
        if let Some(answer) = answer {
            match problem.answers.get(&answer) {
                Some(&(g, first)) => {
                    if problem.groups[g].correct != correct {
                        return Err(Error::invalid(
                            &place(self.file, line, Some(&columns.correct)),
                            &format!(
                                "the same as on line {first}, which gives problem {:?} the same \
                                 answer {answer:?} (an answer is correct or not)",
                                problem.id
                            ),
                            format!(
                                "{} here and {} on line {first}",
                                u8::from(correct),
                                u8::from(!correct)
                            ),
                        ));
                    }
                    problem.groups[g].count += 1;
                }
                None => {
                    problem.answers.insert(answer, (problem.groups.len(), line));
                    problem.groups.push(AnswerGroup { count: 1, correct });
                }
            }
        }
        if let Some(x) = score {
            let level = problem.scores.entry(OrderedScore(x)).or_insert(ScoreLevel {
                count: 0,
                correct: 0,
            });
            level.count += 1;
            level.correct += u64::from(correct);
        }
        Ok(())
    }

    fn finish(self, header_line: u64) -> Result<Samples> {
        if self.rows == 0 {
            return Err(Error::invalid(
                &format!("input file {}", self.file),
                "at least one data row",
                format!("a header (line {header_line}) and no rows"),
            ));
        }
        Ok(Samples {
            source: self.file.to_string(),
            per_sample: self.per_sample,
            has_answers: self.has_answers,
            has_scores: self.has_scores,
            rows: self.rows,
            problems: self
                .problems
                .into_iter()
                .map(|b| Problem {
                    id: b.id,
                    n: b.n,
                    c: b.c,
                    answers: b.groups,
                    scores: b.scores.into_values().collect(),
                })
                .collect(),
        })
    }
}

fn bad_correct(file: &str, line: u64, columns: &Columns, field: &Field) -> Error {
    Error::invalid(
        &place(file, line, Some(&columns.correct)),
        "0, 1, true or false",
        field.shown(),
    )
}

/// Which kind a header names: per-sample when it has the correct column, counts when it has
/// c and n; the missing column is named otherwise.
fn kind_of(file: &str, line: u64, names: &[&str], columns: &Columns) -> Result<(bool, bool, bool)> {
    let has = |c: &str| names.contains(&c);
    if !has(&columns.problem) {
        return Err(Error::invalid(
            &format!("{}, column {}", place(file, line, None), columns.problem),
            &format!("present (the columns are {})", names.join(", ")),
            "nothing",
        ));
    }
    if has(&columns.correct) {
        Ok((true, has(&columns.answer), has(&columns.score)))
    } else if has(&columns.c) && has(&columns.n) {
        Ok((false, false, false))
    } else {
        Err(Error::invalid(
            &format!("{}, column {}", place(file, line, None), columns.correct),
            &format!(
                "present for per-sample rows (or columns {} and {} for counts; the columns are {})",
                columns.c,
                columns.n,
                names.join(", ")
            ),
            "nothing",
        ))
    }
}

fn read_from(
    file: &str,
    reader: impl Read,
    format: InputFormat,
    columns: &Columns,
) -> Result<Samples> {
    match format {
        InputFormat::Csv => read_csv(file, reader, columns),
        InputFormat::Jsonl => read_jsonl(file, reader, columns),
    }
}

fn empty_file(file: &str) -> Error {
    Error::invalid(
        &format!("input file {file}"),
        "a header and rows",
        "an empty file",
    )
}

fn read_csv(file: &str, reader: impl Read, columns: &Columns) -> Result<Samples> {
    let mut reader = BufReader::new(reader);
    // A UTF-8 byte-order mark (spreadsheets write one) is not part of the first column's name.
    let bom = reader
        .fill_buf()
        .map(|b| b.starts_with(b"\xEF\xBB\xBF"))
        .unwrap_or(false);
    if bom {
        reader.consume(3);
    }
    let mut csv = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(reader);
    let csv_error = |e: csv::Error| {
        let line = e.position().map_or(0, |p| p.line());
        let what = match e.kind() {
            csv::ErrorKind::UnequalLengths {
                expected_len, len, ..
            } => format!("{len} fields where the header has {expected_len}"),
            csv::ErrorKind::Utf8 { .. } => "text that is not UTF-8".to_string(),
            _ => e.to_string(),
        };
        Error::invalid(
            &place(file, line.max(1), None),
            "a well-formed CSV row",
            what,
        )
    };
    let header = csv.headers().map_err(csv_error)?.clone();
    if header.is_empty() || (header.len() == 1 && header[0].trim().is_empty()) {
        return Err(empty_file(file));
    }
    let names: Vec<&str> = header.iter().map(str::trim).collect();
    let (per_sample, has_answers, has_scores) = kind_of(file, 1, &names, columns)?;
    let at = |name: &str| names.iter().position(|n| *n == name);
    let (i_problem, i_correct, i_answer, i_score, i_c, i_n) = (
        at(&columns.problem),
        at(&columns.correct),
        at(&columns.answer),
        at(&columns.score),
        at(&columns.c),
        at(&columns.n),
    );
    let mut aggregate = Aggregate {
        file,
        columns,
        per_sample,
        has_answers,
        has_scores,
        rows: 0,
        index: HashMap::new(),
        problems: Vec::new(),
    };
    let mut record = csv::StringRecord::new();
    while csv.read_record(&mut record).map_err(csv_error)? {
        let line = record.position().map_or(0, |p| p.line());
        let get = |i: Option<usize>| i.map(|i| Field::Text(record[i].to_string()));
        let row = Row {
            line,
            problem: i_problem.map(|i| record[i].trim().to_string()),
            correct: get(i_correct),
            answer: get(i_answer),
            score: get(i_score),
            c: get(i_c),
            n: get(i_n),
        };
        aggregate.push(row)?;
    }
    aggregate.finish(1)
}

fn read_jsonl(file: &str, reader: impl Read, columns: &Columns) -> Result<Samples> {
    let mut reader = BufReader::new(reader);
    let mut aggregate: Option<Aggregate> = None;
    let mut buffer = String::new();
    let mut line = 0u64;
    let mut first_line = 0u64;
    loop {
        buffer.clear();
        let read = reader.read_line(&mut buffer).map_err(|e| {
            Error::invalid(
                &place(file, line + 1, None),
                "UTF-8 text",
                format!("an error: {e}"),
            )
        })?;
        if read == 0 {
            break;
        }
        line += 1;
        let mut text = buffer.trim_end_matches(['\n', '\r']);
        if line == 1 {
            text = text.trim_start_matches('\u{feff}');
        }
        if text.trim().is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Error::invalid(
                &format!("{}, column {}", place(file, line, None), e.column()),
                "one JSON object per line",
                format!("invalid JSON ({e})"),
            )
        })?;
        let serde_json::Value::Object(object) = value else {
            return Err(Error::invalid(
                &place(file, line, None),
                "a JSON object",
                text.chars().take(60).collect::<String>(),
            ));
        };
        if aggregate.is_none() {
            let names: Vec<&str> = object.keys().map(String::as_str).collect();
            let (per_sample, has_answers, has_scores) = kind_of(file, line, &names, columns)?;
            first_line = line;
            aggregate = Some(Aggregate {
                file,
                columns,
                per_sample,
                has_answers,
                has_scores,
                rows: 0,
                index: HashMap::new(),
                problems: Vec::new(),
            });
        }
        let field = |name: &str| {
            object.get(name).map(|v| match v {
                serde_json::Value::String(s) => Field::Text(s.clone()),
                serde_json::Value::Number(n) => Field::Number(n.clone()),
                serde_json::Value::Bool(b) => Field::Bool(*b),
                serde_json::Value::Null => Field::Null,
                other => Field::Text(other.to_string()),
            })
        };
        let problem = match field(&columns.problem) {
            None => None,
            Some(Field::Text(t)) => Some(t),
            Some(Field::Number(n)) => Some(n.to_string()),
            Some(Field::Null) => Some(String::new()),
            Some(Field::Bool(b)) => Some(b.to_string()),
        };
        let row = Row {
            line,
            problem,
            correct: field(&columns.correct),
            answer: field(&columns.answer),
            score: field(&columns.score),
            c: field(&columns.c),
            n: field(&columns.n),
        };
        aggregate.as_mut().map_or(Ok(()), |a| a.push(row))?;
    }
    match aggregate {
        None => Err(empty_file(file)),
        Some(a) => a.finish(first_line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv(text: &str) -> Result<Samples> {
        read_text("f.csv", text, InputFormat::Csv, &Columns::default())
    }

    fn jsonl(text: &str) -> Result<Samples> {
        read_text("f.jsonl", text, InputFormat::Jsonl, &Columns::default())
    }

    #[test]
    fn per_sample_rows_are_aggregated() {
        let s = csv("\u{feff}problem,correct,answer,score\r\na,1,x,0.5\r\na,0,y,0.5\r\na,1,x,1\r\nb,0,,2\r\n")
            .unwrap();
        assert_eq!(s.rows, 4);
        assert_eq!((s.problems[0].c, s.problems[0].n), (2, 3));
        assert_eq!(s.problems[0].answers.len(), 2);
        assert_eq!(s.problems[0].scores.len(), 2);
        assert_eq!(
            s.problems[0].scores[0],
            ScoreLevel {
                count: 2,
                correct: 1
            }
        );
        assert_eq!(s.problems[1].abstentions(), 1);
    }

    #[test]
    fn jsonl_reads_booleans_and_nulls() {
        let s = jsonl(
            "{\"problem\": 1, \"correct\": true, \"answer\": \"4\"}\n\n{\"problem\": 1, \"correct\": false, \"answer\": null}\n",
        )
        .unwrap();
        assert_eq!((s.problems[0].c, s.problems[0].n), (1, 2));
        assert_eq!(s.problems[0].abstentions(), 1);
    }

    #[test]
    fn malformed_input_is_refused_with_its_place() {
        let cases = [
            ("", "empty file"),
            ("problem,correct\n", "no rows"),
            ("problem,correct\na,2\n", "line 2, column correct"),
            (
                "problem,correct,answer\na,1,x\na,0,x\n",
                "line 3, column correct",
            ),
            ("problem,correct,score\na,1,NaN\n", "line 2, column score"),
            ("problem,c,n\na,3,2\n", "line 2, column c"),
            ("problem,c,n\na,1,2\na,1,2\n", "already on line 2"),
            ("problem,c,n\na,-1,2\n", "line 2, column c"),
            ("problem,c,n\na,1,2.5\n", "line 2, column n"),
            ("problem,c,n\na,0,0\n", "line 2, column n"),
            ("problem,answer\na,x\n", "column correct"),
            ("problem,correct\na,1,2\n", "line 2"),
        ];
        for (text, place) in cases {
            let e = csv(text).unwrap_err().to_string();
            assert!(e.contains(place), "{text:?}: {e}");
            assert!(e.contains("f.csv"), "{text:?}: {e}");
        }
    }
}

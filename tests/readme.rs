//! The README's examples are tests: every `console` block of README.md and docs/guide.md runs,
//! command by command, in a shell (pipes, variables and files as a reader would type them), and
//! its output must be what the page shows. Only what a machine changes is masked on both
//! sides: durations, rates and the padding that their width moves, and the checksums of shard
//! records, which cover their seconds. A shown line `...` stands
//! for any number of lines (an elision), and a note `(on standard error)` at the end of a
//! shown line is the page's, not the tool's. A shown table must be laid out as the tool lays
//! out its tables, so that its widths are those of its own figures, the padding being masked.
//!
//! trycmd runs a binary without a shell, and the pages' examples pipe `printf` into the tool,
//! set variables and write files; hence this runner.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::LazyLock;

use regex::Regex;

use crate::cli::bin;
use crate::support::{open_pty, read_terminal};

/// One command of a page and the output the page shows for it.
struct Example {
    /// The page's 1-based line of the command.
    line: usize,
    command: String,
    shown: String,
}

/// The `console` blocks of `page`, each a list of examples.
fn blocks(page: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut block: Option<Vec<Example>> = None;
    for (i, text) in page.lines().enumerate() {
        match &mut block {
            None if text == "```console" => block = Some(Vec::new()),
            None => {}
            Some(examples) if text == "```" => {
                blocks.push(std::mem::take(examples));
                block = None;
            }
            Some(examples) => match text.strip_prefix("$ ") {
                Some(command) => examples.push(Example {
                    line: i + 1,
                    command: command.to_string(),
                    shown: String::new(),
                }),
                None => {
                    let example = examples.last_mut().expect("a block starts with a command");
                    example.shown.push_str(text);
                    example.shown.push('\n');
                }
            },
        }
    }
    blocks
}

/// What a machine changes in an output, masked: durations and rates, JSON seconds and the
/// checksums of shard records (which cover the seconds), and the runs of spaces and dashes
/// that a column of durations pads.
fn masked(text: &str) -> String {
    static DURATION: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"[0-9][0-9.,e+-]*\s*(µs|ms|s|min|minutes|h|hours|d|days|years)\b").unwrap()
    });
    static SECONDS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""(\w*seconds|elapsed\w*)":\s*[0-9.e+-]+"#).unwrap());
    // A shard record's checksum covers its seconds, and changes with them.
    static CHECKSUM: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""checksum":"[0-9a-f]{8}""#).unwrap());
    static SPACES: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" {2,}").unwrap());
    static RULE: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(?m)^-{3,}$").unwrap());
    let text = SECONDS.replace_all(text, r#""$1":<s>"#);
    let text = CHECKSUM.replace_all(&text, r#""checksum":<crc>"#);
    let text = DURATION.replace_all(&text, "<time>");
    let text = RULE.replace_all(&text, "---");
    SPACES.replace_all(&text, " ").into_owned()
}

/// Whether `printed` is what `shown` shows, line by line, a shown `...` standing for any
/// number of printed lines.
fn matches(shown: &str, printed: &str) -> bool {
    fn from(shown: &[&str], printed: &[&str]) -> bool {
        match shown.split_first() {
            None => printed.is_empty(),
            Some((&"...", rest)) => (0..=printed.len()).any(|skip| from(rest, &printed[skip..])),
            Some((line, rest)) => printed.first() == Some(line) && from(rest, &printed[1..]),
        }
    }
    static NOTE: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"\s*\(on standard error\)$").unwrap());
    let shown: Vec<String> = shown
        .lines()
        .map(|line| NOTE.replace(line.trim_end(), "").into_owned())
        .collect();
    let shown: Vec<&str> = shown.iter().map(|line| line.trim()).collect();
    let printed: Vec<&str> = printed.lines().map(str::trim).collect();
    from(&shown, &printed)
}

/// Runs a page's commands in one shell, in order, as a reader types them into one terminal (a
/// pseudo-terminal, so that the tool prints what a person sees), in a scratch directory that
/// sees the repository's fixtures; returns each command's output.
fn run_page(examples: &[Example], scratch: &Path) -> Vec<String> {
    const MARK: &str = "<<quadrille: next example>>";
    let mut script = String::new();
    for example in examples {
        script.push_str(&format!("printf '%s\\n' '{MARK}'\n{}\n", example.command));
    }
    let bin_dir = Path::new(bin()).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (master, slave) = open_pty();
    let mut shell = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(scratch)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave))
        .spawn()
        .expect("bash runs");
    let screen = read_terminal(master);
    shell.wait().unwrap();
    // What the terminal shows at the end: progress bars drawn and cleared leave nothing. The
    // screen is as tall as the output, so that nothing scrolls away, and wider than any line.
    let bytes = screen.join().unwrap();
    let rows = bytes.iter().filter(|&&b| b == b'\n').count() + 2;
    let mut terminal = vt100::Parser::new(u16::try_from(rows).unwrap(), 1000, 0);
    terminal.process(&bytes);
    let screen = terminal.screen().contents() + "\n";
    screen
        .split(&format!("{MARK}\n"))
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// The lines of the tables that `shown` shows (a header, a rule of dashes, then rows up to a
/// blank line) that are not laid out as the tool lays out a table: each column as wide as its
/// widest cell, the first left-aligned, the others right-aligned, two spaces apart, the rule
/// as long as the columns. The comparison with the output masks the padding that durations
/// move, so this is what keeps a table's widths true: a figure edited by hand, or copied from
/// another run, leaves its column's width wrong here.
fn misaligned_table_lines(shown: &str) -> Vec<String> {
    static GAP: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" {2,}").unwrap());
    let lines: Vec<&str> = shown.lines().map(str::trim_end).collect();
    let mut wrong = Vec::new();
    for (at, rule) in lines.iter().enumerate() {
        if at == 0 || rule.len() < 3 || !rule.bytes().all(|b| b == b'-') {
            continue;
        }
        let rows_end = (at + 1..lines.len())
            .find(|&i| lines[i].is_empty() || lines[i] == "...")
            .unwrap_or(lines.len());
        let table: Vec<&str> = std::iter::once(lines[at - 1])
            .chain(lines[at + 1..rows_end].iter().copied())
            .collect();
        let cells: Vec<Vec<&str>> = table.iter().map(|row| GAP.split(row).collect()).collect();
        let columns = cells.iter().map(Vec::len).max().unwrap_or(0);
        let widths: Vec<usize> = (0..columns)
            .map(|c| {
                let width = |row: &Vec<&str>| row.get(c).map_or(0, |cell| cell.chars().count());
                cells.iter().map(width).max().unwrap_or(0)
            })
            .collect();
        let laid_out = |row: &[&str]| {
            let mut line = format!("{:<w$}", row[0], w = widths[0]);
            for (cell, width) in row.iter().zip(&widths).skip(1) {
                line.push_str(&format!("  {cell:>width$}"));
            }
            line.trim_end().to_string()
        };
        let mut expected: Vec<String> = cells.iter().map(|row| laid_out(row)).collect();
        expected.insert(
            1,
            "-".repeat(widths.iter().sum::<usize>() + 2 * (columns - 1)),
        );
        let shown_table = std::iter::once(lines[at - 1]).chain(lines[at..rows_end].iter().copied());
        for (shown_line, expected) in shown_table.zip(expected) {
            if shown_line != expected {
                wrong.push(format!("shown:    {shown_line}\nlaid out: {expected}"));
            }
        }
    }
    wrong
}

fn check_page(name: &str) {
    let root = crate::support::root();
    let page = std::fs::read_to_string(root.join(name)).unwrap();
    let examples: Vec<Example> = blocks(&page).into_iter().flatten().collect();
    assert!(!examples.is_empty(), "{name} has examples");
    let scratch = std::env::temp_dir().join(format!(
        "quadrille-examples-{}-{}",
        std::process::id(),
        name.replace('/', "-")
    ));
    std::fs::create_dir_all(&scratch).unwrap();
    std::os::unix::fs::symlink(root.join("fixtures"), scratch.join("fixtures")).unwrap();
    let outputs = run_page(&examples, &scratch);
    std::fs::remove_dir_all(&scratch).unwrap();
    assert_eq!(outputs.len(), examples.len(), "{name}: every command ran");
    let misaligned: Vec<String> = examples
        .iter()
        .flat_map(|example| {
            misaligned_table_lines(&example.shown)
                .into_iter()
                .map(move |line| format!("{name}:{}: a table's columns:\n{line}", example.line))
        })
        .collect();
    assert!(misaligned.is_empty(), "{}", misaligned.join("\n"));
    let wrong: Vec<String> = examples
        .iter()
        .zip(outputs)
        .filter(|(example, output)| !matches(&masked(&example.shown), &masked(output)))
        .map(|(example, output)| {
            format!(
                "{name}:{}: $ {}\n--- shown\n{}--- printed\n{output}",
                example.line, example.command, example.shown
            )
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The check of a table's layout sees a figure whose column was not widened with it.
#[test]
fn a_table_whose_widths_do_not_fit_its_figures_is_seen() {
    let table = "time\n\nengine  solved     total\n------------------------\ndlx      20/20  278.7 µs\ncsp      20/20  109.6 µs\n";
    assert!(misaligned_table_lines(table).is_empty(), "{table}");
    let widened = table.replace("278.7 µs", "1278.7 µs");
    // The header, the rule and the other row keep the old width.
    assert_eq!(misaligned_table_lines(&widened).len(), 3, "{widened}");
}

#[test]
fn the_readme_examples_print_what_the_readme_shows() {
    check_page("README.md");
}

#[test]
fn the_guide_examples_print_what_the_guide_shows() {
    check_page("docs/guide.md");
}

//! The progress bar of an input being read, on standard error when it is a terminal: one look
//! for every subcommand.

use std::io::{BufRead, BufReader};

use indicatif::{ProgressBar, ProgressStyle};

use super::{Input, stderr_is_terminal};

/// Wraps the reader of a file of at least `min_bytes` (the request's size for a report,
/// [`quadrille::request::PROGRESS_BYTES`]) in a progress bar of the bytes read, when standard
/// error is a terminal; other inputs are returned as they are, without a bar. Finish the bar
/// (`finish_and_clear`) when the input is done. `quiet` (`-q`) means no bar.
pub fn track_reading(
    input: Input,
    min_bytes: u64,
    quiet: bool,
) -> (Box<dyn BufRead + Send>, Option<ProgressBar>) {
    match input.size {
        Some(size) if !quiet && size >= min_bytes && stderr_is_terminal() => {
            let bar = ProgressBar::new(size);
            bar.set_style(
                ProgressStyle::with_template(
                    "{msg} [{bar:40}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .expect("the template is valid")
                .progress_chars("=> "),
            );
            bar.set_message(input.name);
            let reader = BufReader::new(bar.wrap_read(input.reader));
            (Box::new(reader), Some(bar))
        }
        _ => (input.reader, None),
    }
}

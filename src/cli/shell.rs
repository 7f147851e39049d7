//! `shoal completions SHELL` and `shoal man`: the shell's tab completion script and the man
//! pages, both generated from the one clap definition, so they never fall behind the flags.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use clap_complete::Shell;

#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    pub shell: CompletionShell,
}

/// The shells `completions` writes for (clap_complete's, by their usual names).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum CompletionShell {
    Bash,
    Zsh,
    Fish,
    Elvish,
    Powershell,
}

impl CompletionShell {
    fn shell(self) -> Shell {
        match self {
            CompletionShell::Bash => Shell::Bash,
            CompletionShell::Zsh => Shell::Zsh,
            CompletionShell::Fish => Shell::Fish,
            CompletionShell::Elvish => Shell::Elvish,
            CompletionShell::Powershell => Shell::PowerShell,
        }
    }
}

#[derive(Args, Debug)]
pub struct ManArgs {
    /// Write `shoal.1` and one page per subcommand (`shoal-hot.1`, …) into this folder instead
    /// of printing `shoal.1` to standard output.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

/// Prints the completion script for `args.shell` to standard output.
pub fn completions(args: &CompletionsArgs, command: &mut clap::Command) -> Result<()> {
    let name = command.get_name().to_string();
    // Into memory first: clap_complete panics on a write error, and `| head` closes the pipe.
    let mut script = Vec::new();
    clap_complete::generate(args.shell.shell(), command, name, &mut script);
    print_all(&script)
}

/// Writes `bytes` to standard output; a reader that stops early (`| head`) is not an error.
fn print_all(bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Prints `shoal.1`, or with `--out DIR` writes every page there.
pub fn man(args: &ManArgs, command: clap::Command) -> Result<()> {
    match &args.out {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(command, dir)
                .with_context(|| format!("writing man pages into {}", dir.display()))?;
            eprintln!("shoal: man pages written to {}", dir.display());
            Ok(())
        }
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(command).render(&mut page)?;
            print_all(&page)
        }
    }
}

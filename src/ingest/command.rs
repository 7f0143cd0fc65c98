//! A command line held as pieces of one table per build (see
//! [`HeldCommand`]).

use std::collections::HashMap;
use std::sync::Arc;

/// A command line held as a list of pieces, each piece held once for the
/// whole build: a piece ends after a `/` or a space, so that the directory
/// of a run's scratch path, named four or five times in each of its
/// commands, and the options every repetition shares, are each held once.
/// Every run's command differs (it names the run's scratch directory), so
/// that held whole, the commands alone would take a build of 100,000 fio
/// records 80 MB.
#[derive(Clone, Debug)]
pub struct HeldCommand {
    /// The build's pieces: given once the build is loaded (see
    /// [`Pieces::give`]).
    pieces: Arc<[Arc<str>]>,
    ids: Box<[u32]>,
}

impl HeldCommand {
    /// `line` held as one piece of its own, in no build's table (a record
    /// held whole, see `Found::new`).
    pub fn whole(line: String) -> HeldCommand {
        HeldCommand {
            pieces: Arc::from([Arc::<str>::from(line)]),
            ids: Box::new([0]),
        }
    }

    /// The command line, as written.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for &id in &self.ids {
            out.push_str(&self.pieces[id as usize]);
        }
        out
    }
}

impl PartialEq for HeldCommand {
    fn eq(&self, other: &HeldCommand) -> bool {
        self.text() == other.text()
    }
}

/// The pieces of the commands held in one build, by number and by text,
/// owned by the loader while it loads.
#[derive(Debug, Default)]
pub(super) struct Pieces {
    by_text: HashMap<Arc<str>, u32>,
    all: Vec<Arc<str>>,
}

impl Pieces {
    /// `line` held as pieces of this table; it reads back once the table
    /// is given to it ([`Pieces::give`]).
    pub(super) fn hold(&mut self, line: &str) -> HeldCommand {
        let mut ids = Vec::new();
        let mut rest = line;
        while !rest.is_empty() {
            let end = rest.find(['/', ' ']).map_or(rest.len(), |i| i + 1);
            let (piece, after) = rest.split_at(end);
            rest = after;
            let id = match self.by_text.get(piece) {
                Some(&id) => id,
                None => {
                    let id = self.all.len() as u32;
                    let text: Arc<str> = piece.into();
                    self.all.push(text.clone());
                    self.by_text.insert(text, id);
                    id
                }
            };
            ids.push(id);
        }
        HeldCommand {
            pieces: Arc::from([]),
            ids: ids.into_boxed_slice(),
        }
    }

    /// Gives the finished table to the commands held with it.
    pub(super) fn give<'c>(self, held: impl IntoIterator<Item = &'c mut HeldCommand>) {
        let all: Arc<[Arc<str>]> = self.all.into();
        for h in held {
            h.pieces = all.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_held_as_pieces_reads_back_as_written() {
        let mut pieces = Pieces::default();
        let lines = [
            "fio --filename=/mnt/a/.scratch-1/t.r1/f --output=/mnt/a/.scratch-1/t.r1/o",
            "fio --filename=/mnt/a/.scratch-1/t.r2/f --output=/mnt/a/.scratch-1/t.r2/o",
            "dd if=/dev/zero of='/mnt/my disk/x' ",
            "",
        ];
        let mut held: Vec<HeldCommand> = lines.iter().map(|l| pieces.hold(l)).collect();
        assert_eq!(pieces.all.len(), 9 + 1 + 8);
        assert_eq!(&*pieces.all[held[1].ids[5] as usize], "t.r2/");
        pieces.give(&mut held);
        for (line, h) in lines.iter().zip(&held) {
            assert_eq!(h.text(), *line);
        }
        // `fio `, `--filename=/`, `mnt/`, `a/`, `.scratch-1/`, `t.r1/`,
        // `f `, `--output=/`, then four of those again, and `o`: the
        // second line adds `t.r2/` alone, the third eight pieces
        assert_eq!(held[0].ids.len(), 13);
        assert!(held[3].ids.is_empty());
    }
}

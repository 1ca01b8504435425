//! The states on the search's path, from the root to the current depth.
//!
//! A state block is a few words per cell (see [`State`](super::domains::State)), and a search
//! goes as deep as the open cells. On small boards each depth keeps its own block: a child is
//! a copy of its parent, and backing up is free. On large nearly empty boards that is the
//! whole memory of the search (a 35 KB block per level of a 3,300-level descent on a 64x64
//! grid, 110 MB), so there the stack keeps the current block and, per level, the words that
//! going down to it changed, with their values above: a child is still propagated in a copy,
//! and backing up writes the old words back.

/// The states of the search's path (see the module's documentation).
#[derive(Clone, Debug)]
pub(super) struct StateStack {
    /// Words per block.
    stride: usize,
    /// Kept blocks: one per depth reached, or (logged) the current block and the child's.
    blocks: Vec<u64>,
    /// The levels' changed words, on boards where levels are logged rather than kept as blocks
    /// (boxed: most solvers have none, and the solver stays small).
    log: Option<Box<Log>>,
}

/// The words each level of the path changed (see [`StateStack`]).
#[derive(Clone, Debug, Default)]
struct Log {
    /// Which of the two blocks is the current one (0 or 1).
    current: usize,
    /// The words each level changed, by index in the block...
    changed: Vec<u32>,
    /// ...and their values at the level above.
    before: Vec<u64>,
    /// Where each level's entries start in `changed`, for the levels below the root.
    frames: Vec<usize>,
}

/// The size of a stack of whole blocks down to every cell above which the levels are logged:
/// 36x36 grids and larger (25x25: 3.5 MB; 36x36: 14.8 MB; 64x64: 143 MB).
const LOGGED_ABOVE_BYTES: usize = 8 << 20;

impl StateStack {
    /// A stack of blocks of `stride` words for a board of `cells` cells, with room for two
    /// levels.
    pub(super) fn new(stride: usize, cells: usize) -> StateStack {
        let logged = stride.saturating_mul(cells).saturating_mul(8) > LOGGED_ABOVE_BYTES;
        StateStack {
            stride,
            blocks: vec![0; 2 * stride],
            log: logged.then(Box::default),
        }
    }

    /// Keeps levels as changed words (`true`) or as whole blocks, whatever the board's size:
    /// for tests that compare the two.
    #[cfg(test)]
    pub(super) fn set_logged(&mut self, logged: bool) {
        self.log = logged.then(Box::default);
    }

    /// The root's block, the path emptied: the search writes its root state here.
    #[inline]
    pub(super) fn root(&mut self) -> &mut [u64] {
        if let Some(log) = &mut self.log {
            log.current = 0;
            log.changed.clear();
            log.before.clear();
            log.frames.clear();
        }
        &mut self.blocks[..self.stride]
    }

    /// The block of the state at `depth`, the deepest level of the path.
    #[inline]
    pub(super) fn at(&mut self, depth: usize) -> &mut [u64] {
        let slot = self.log.as_ref().map_or(depth, |log| log.current);
        &mut self.blocks[slot * self.stride..(slot + 1) * self.stride]
    }

    /// A copy of the state at `depth` to propagate a child in; [`StateStack::descend`] makes it
    /// the state at `depth + 1`.
    #[inline]
    pub(super) fn child(&mut self, depth: usize) -> &mut [u64] {
        let stride = self.stride;
        let (from, to) = match &self.log {
            Some(log) => (log.current, 1 - log.current),
            None => (depth, depth + 1),
        };
        if self.blocks.len() < (to + 1) * stride {
            self.blocks.resize((to + 1) * stride, 0);
        }
        self.blocks
            .copy_within(from * stride..(from + 1) * stride, to * stride);
        &mut self.blocks[to * stride..(to + 1) * stride]
    }

    /// Goes down to the child last made by [`StateStack::child`].
    #[inline]
    pub(super) fn descend(&mut self) {
        let Some(log) = &mut self.log else {
            return;
        };
        let (first, second) = self.blocks.split_at(self.stride);
        let (parent, child) = if log.current == 0 {
            (first, second)
        } else {
            (second, first)
        };
        log.frames.push(log.changed.len());
        for (i, (&was, &now)) in parent.iter().zip(child).enumerate() {
            if was != now {
                log.changed.push(i as u32);
                log.before.push(was);
            }
        }
        log.current = 1 - log.current;
    }

    /// Backs up one level: the state above the deepest becomes the deepest.
    #[inline]
    pub(super) fn ascend(&mut self) {
        let Some(log) = &mut self.log else {
            return;
        };
        let from = log
            .frames
            .pop()
            .expect("the search backs up only below the root");
        let at = log.current * self.stride;
        let block = &mut self.blocks[at..at + self.stride];
        for (&i, &was) in log.changed[from..].iter().zip(&log.before[from..]) {
            block[i as usize] = was;
        }
        log.changed.truncate(from);
        log.before.truncate(from);
    }
}

#[cfg(test)]
mod tests {
    use super::StateStack;

    /// A path of states down and back up gives back every state, logged or not.
    #[test]
    fn backing_up_restores_every_level() {
        for cells in [4, 1 << 20] {
            let mut stack = StateStack::new(8, cells);
            assert_eq!(stack.log.is_some(), cells > 4);
            stack.root().copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
            let mut path = vec![stack.at(0).to_vec()];
            for depth in 0..5 {
                let child = stack.child(depth);
                child[depth] += 10;
                child[7] = depth as u64;
                let kept = child.to_vec();
                stack.descend();
                assert_eq!(stack.at(depth + 1), &kept[..]);
                path.push(kept);
            }
            for depth in (0..5).rev() {
                stack.ascend();
                assert_eq!(stack.at(depth), &path[depth][..]);
            }
        }
    }
}

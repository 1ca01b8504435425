//! The zero-suppressed decision diagram (ZDD) of every solution, built by the remembering
//! count as DXZ builds it, written and read in the text format of `docs/memo.md`, and sampled
//! exactly uniformly.
//!
//! A node `(option, lo, hi)` stands for a family of sets of options: those of `lo`, and those
//! of `hi` with `option` added. Node 0 is the empty family (no solution), node 1 the family of
//! the empty set (the problem solved). A subproblem that branches on an item whose options
//! `x1, ..., xk` lead to the subproblems `Z1, ..., Zk` is the chain `(x1, (x2, ... (xk, 0, Zk)
//! ..., Z2), Z1)`; a subproblem met again is the node built the first time, so the diagram has
//! a chain per remembered subproblem, not a path per solution. The families of a node's `lo`
//! and `hi` are disjoint (every solution is found once), so the node's count is the sum of
//! theirs, and a walk from the root that takes `hi` with probability `count(hi) / count(node)`
//! draws every solution with the same probability.

use std::io::Write;

use num_bigint::BigUint;
use rand::RngExt;

use super::nodes::{Node, Nodes};
use super::{Dlx, Memo, MemoMode};
use crate::budget::Budget;
use crate::{ErrorKind, Result};

/// The node of the empty family: no solution.
pub(super) const FALSE: u32 = 0;
/// The node of the family of the empty set: nothing left to cover.
pub(super) const TRUE: u32 = 1;

/// The bytes a node of a diagram takes with the count a sampler keeps beside it, a `u128` (see
/// [`Zdd::sampler`]): 28.
const NODE_BYTES: usize = std::mem::size_of::<Node>() + std::mem::size_of::<u128>();

/// A diagram under construction, beside the remembering search, in the memory it shares with
/// the search's table of subproblems.
///
/// The memory bounds the process at every moment, not the diagram at the end: the table (whose
/// doubling the table keeps within what the diagram leaves, see
/// [`Cache::limit`](super::cache::Cache::limit)), the diagram's blocks of nodes, and the count
/// that a sampler will keep beside each of their nodes, 28 bytes a node in all. The counts are
/// made once the table is gone, but an allocator may keep the table's pages a moment after it
/// is freed (mimalloc does, 10 ms), and the counts are made in that moment. A diagram whose
/// next block of nodes finds no room is given up at once.
pub(crate) struct Diagram {
    /// The nodes from 2 on (node `i` at `i - 2`), each after its `lo` and `hi`.
    nodes: Nodes,
    /// The options tried so far at the levels of the search, with the nodes of their
    /// subproblems (those with a solution).
    pub(super) children: Vec<(u32, u32)>,
    /// The root, once the search has finished.
    pub(super) root: u32,
    /// The bytes the diagram and the table share.
    memory: usize,
    /// Whether a node found no room.
    full: bool,
}

impl Diagram {
    fn new(memory: usize) -> Diagram {
        Diagram {
            nodes: Nodes::default(),
            children: Vec::new(),
            root: FALSE,
            memory,
            full: false,
        }
    }

    /// The bytes the diagram holds or keeps for its counts.
    fn bytes(&self) -> usize {
        self.nodes.capacity() * NODE_BYTES
    }

    /// The bytes the table may hold beside the diagram as it is now.
    pub(super) fn room_for_table(&self) -> usize {
        self.memory.saturating_sub(self.bytes())
    }

    /// The chain of the children from `start` on (see the module's description), which it
    /// takes off the list; [`FALSE`] when there is none, and `None` (the diagram full) when
    /// a node finds no room beside the `table_bytes` of the table.
    pub(super) fn chain(&mut self, start: usize, table_bytes: usize) -> Option<u32> {
        let mut lo = FALSE;
        for i in (start..self.children.len()).rev() {
            let room = self.bytes() + self.nodes.growth() * NODE_BYTES + table_bytes <= self.memory;
            if self.nodes.len() >= u32::MAX as usize - 2 || !room {
                self.full = true;
                return None;
            }
            let (option, hi) = self.children[i];
            self.nodes.push((option, lo, hi));
            lo = self.nodes.len() as u32 + 1;
        }
        self.children.truncate(start);
        Some(lo)
    }

    /// Whether the diagram has outgrown its memory.
    pub(super) fn is_full(&self) -> bool {
        self.full
    }
}

/// The zero-suppressed decision diagram of every solution of a problem (see
/// [`Dlx::zdd`]): options are numbered as in the problem, from 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zdd {
    /// Node `i` (from 2) at `i - 2`: `(option, lo, hi)`, `lo` and `hi` below `i`.
    nodes: Nodes,
    root: u32,
}

impl Dlx {
    /// The decision diagram of every solution, built by a remembering count (see
    /// [`Dlx::count_memo`]) with `memo`'s item choice, within `memo.memory` bytes at every
    /// moment: the table of subproblems and the diagram while it is built, the diagram and a
    /// [`Zdd::sampler`]'s counts (28 bytes a node) after.
    ///
    /// ```
    /// use quadrille::exact_cover::{Dlx, Memo};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::dominoes(8, 8)?);
    /// let zdd = dlx.zdd(&Memo::default())?;
    /// assert_eq!(zdd.count(), 12_988_816u32.into());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::DiagramTooLarge`] as soon as the diagram outgrows the memory.
    pub fn zdd(&mut self, memo: &Memo) -> Result<Zdd> {
        self.zdd_within(memo, &Budget::unlimited())
    }

    /// [`Dlx::zdd`] within `budget`: a diagram is all or nothing, so a budget that runs out
    /// first is an error.
    ///
    /// ```
    /// use quadrille::{Budget, ErrorKind};
    /// use quadrille::exact_cover::{Dlx, Memo};
    /// use quadrille::problems;
    ///
    /// let mut dlx = Dlx::new(&problems::dominoes(8, 8)?);
    /// let stopped = dlx.zdd_within(&Memo::default(), &Budget::nodes(100)).unwrap_err();
    /// assert!(matches!(stopped.kind(), ErrorKind::StoppedBuilding { budget: "node budget", .. }));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::StoppedBuilding`] when the budget runs out, and
    /// [`ErrorKind::DiagramTooLarge`] when the diagram outgrows the memory.
    pub fn zdd_within(&mut self, memo: &Memo, budget: &Budget) -> Result<Zdd> {
        let mut diagram = Diagram::new(memo.memory);
        let always = Memo {
            mode: MemoMode::Always,
            ..*memo
        };
        let counted = self
            .memo_search(budget, &always, false, Some(&mut diagram))
            .expect("a count without a trial is never given up");
        if counted.report.stop.is_budget() && !diagram.is_full() {
            return Err(ErrorKind::StoppedBuilding {
                budget: counted.report.stop.budget_name(),
                what: "the diagram was being built",
            }
            .into());
        }
        if diagram.is_full() || !counted.exact {
            return Err(ErrorKind::DiagramTooLarge { bytes: memo.memory }.into());
        }
        Ok(Zdd {
            nodes: diagram.nodes,
            root: diagram.root,
        })
    }
}

impl Zdd {
    /// The root's number, its place in [`Zdd::counts`].
    pub(crate) fn root(&self) -> usize {
        self.root as usize
    }

    /// The number of nodes, the two terminals included.
    pub fn node_count(&self) -> usize {
        self.nodes.len() + 2
    }

    /// The number of solutions, of any size.
    pub fn count(&self) -> BigUint {
        // In 128 bits while they suffice: a big integer a node is an allocation a node, about
        // three times the memory of the diagram's nodes.
        if let Some(counts) = self.counts() {
            return counts[self.root as usize].into();
        }
        self.big_counts().swap_remove(self.root as usize)
    }

    /// Every node's count, terminals first; `None` beyond 128 bits.
    pub(crate) fn counts(&self) -> Option<Vec<u128>> {
        let mut counts: Vec<u128> = Vec::with_capacity(self.node_count());
        counts.extend([0, 1]);
        for &(_, lo, hi) in self.nodes.iter() {
            let sum = counts[lo as usize].checked_add(counts[hi as usize])?;
            counts.push(sum);
        }
        Some(counts)
    }

    /// Writes the diagram in the text format of `docs/memo.md`.
    ///
    /// # Errors
    /// If writing fails.
    pub fn write(&self, mut out: impl Write) -> Result<()> {
        writeln!(out, "zdd {} {}", self.node_count(), self.root)?;
        for (i, &(option, lo, hi)) in self.nodes.iter().enumerate() {
            writeln!(out, "{} {option} {lo} {hi}", i + 2)?;
        }
        Ok(())
    }

    /// Reads a diagram in the text format of `docs/memo.md`.
    ///
    /// ```
    /// use quadrille::exact_cover::Zdd;
    ///
    /// // Options 0 or 1, then option 2: two solutions.
    /// let zdd = Zdd::parse("zdd 5 4\n2 2 0 1\n3 1 0 2\n4 0 3 2\n")?;
    /// assert_eq!(zdd.count(), 2u32.into());
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`ErrorKind::BadDiagram`] when the text is not such a diagram.
    pub fn parse(text: &str) -> Result<Zdd> {
        let bad = |reason: String| ErrorKind::BadDiagram { reason }.into();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split_whitespace().collect();
        let (count, root) = match header[..] {
            ["zdd", count, root] => match (count.parse::<u32>(), root.parse::<u32>()) {
                (Ok(count), Ok(root)) if count >= 2 && root < count => (count, root),
                _ => return Err(bad("the first line is not 'zdd NODES ROOT'".into())),
            },
            _ => return Err(bad("the first line is not 'zdd NODES ROOT'".into())),
        };
        let mut nodes = Nodes::default();
        for (i, line) in (2u32..).zip(lines) {
            let numbers: Vec<u32> = line
                .split_whitespace()
                .map(str::parse)
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| bad(format!("node {i}: not four whole numbers")))?;
            match numbers[..] {
                [id, option, lo, hi] if id == i && lo < i && hi < i && hi != FALSE => {
                    nodes.push((option, lo, hi));
                }
                _ => {
                    return Err(bad(format!(
                        "line {} is not 'NODE OPTION LO HI' for node {i} with LO and HI below it and HI not 0",
                        i
                    )));
                }
            }
        }
        if nodes.len() + 2 != count as usize {
            return Err(bad(format!(
                "{} nodes, and the first line says {count}",
                nodes.len() + 2
            )));
        }
        Ok(Zdd { nodes, root })
    }

    /// A sampler of the solutions, or `None` when there is none. Its counts are 128-bit
    /// while they suffice, and big integers past that.
    pub fn sampler(&self) -> Option<ZddSampler<'_>> {
        let counts = match self.counts() {
            Some(counts) => NodeCounts::Small(counts),
            None => NodeCounts::Big(self.big_counts()),
        };
        let sampler = ZddSampler { zdd: self, counts };
        (sampler.count() > BigUint::ZERO).then_some(sampler)
    }

    /// Every node's count as a big integer, terminals first.
    fn big_counts(&self) -> Vec<BigUint> {
        let mut counts: Vec<BigUint> = Vec::with_capacity(self.node_count());
        counts.extend([BigUint::ZERO, BigUint::from(1u32)]);
        for &(_, lo, hi) in self.nodes.iter() {
            let sum = &counts[lo as usize] + &counts[hi as usize];
            counts.push(sum);
        }
        counts
    }
}

/// Every node's count, in 128 bits where the root's fits.
#[derive(Clone, Debug)]
enum NodeCounts {
    Small(Vec<u128>),
    Big(Vec<BigUint>),
}

/// Draws solutions from a [`Zdd`], each with the same probability.
#[derive(Clone, Debug)]
pub struct ZddSampler<'a> {
    zdd: &'a Zdd,
    counts: NodeCounts,
}

impl ZddSampler<'_> {
    /// The number of solutions, of any size.
    pub fn count(&self) -> BigUint {
        let root = self.zdd.root as usize;
        match &self.counts {
            NodeCounts::Small(counts) => counts[root].into(),
            NodeCounts::Big(counts) => counts[root].clone(),
        }
    }

    /// One solution drawn uniformly at random, as its options in the diagram's order,
    /// written into `out` (cleared first).
    ///
    /// ```
    /// use quadrille::exact_cover::{Dlx, Memo};
    /// use quadrille::problems;
    /// use rand::SeedableRng;
    ///
    /// let zdd = Dlx::new(&problems::queens(8)?).zdd(&Memo::default())?;
    /// let sampler = zdd.sampler().unwrap();
    /// let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    /// let mut queens = Vec::new();
    /// sampler.sample(&mut rng, &mut queens);
    /// assert_eq!((sampler.count(), queens.len()), (92u32.into(), 8));
    /// # Ok::<(), quadrille::Error>(())
    /// ```
    pub fn sample<R: rand::Rng + ?Sized>(&self, rng: &mut R, out: &mut Vec<usize>) {
        match &self.counts {
            NodeCounts::Small(counts) => self.zdd.sample_with(counts, rng, out),
            NodeCounts::Big(counts) => self.zdd.sample_big(counts, rng, out),
        }
    }
}

impl Zdd {
    /// [`ZddSampler::sample`] with every node's count given, for a holder of the diagram
    /// that draws many times and so computes the counts once.
    pub(crate) fn sample_with<R: rand::Rng + ?Sized>(
        &self,
        counts: &[u128],
        rng: &mut R,
        out: &mut Vec<usize>,
    ) {
        self.walk(out, |at, hi| rng.random_range(0..counts[at]) < counts[hi]);
    }

    /// [`Zdd::sample_with`] for counts past 128 bits.
    fn sample_big<R: rand::Rng + ?Sized>(
        &self,
        counts: &[BigUint],
        rng: &mut R,
        out: &mut Vec<usize>,
    ) {
        self.walk(out, |at, hi| below(&counts[at], rng) < counts[hi]);
    }

    /// The options of one walk from the root to the true terminal, into `out` (cleared
    /// first), taking a node's `HI` where `take_hi(node, HI)` says so: with probability
    /// count(HI) / count(node) for a uniform draw.
    fn walk(&self, out: &mut Vec<usize>, mut take_hi: impl FnMut(usize, usize) -> bool) {
        out.clear();
        let mut at = self.root;
        while at > TRUE {
            let (option, lo, hi) = self.nodes.get(at as usize - 2);
            if take_hi(at as usize, hi as usize) {
                out.push(option as usize);
                at = hi;
            } else {
                at = lo;
            }
        }
    }
}

/// A whole number drawn uniformly from 0 to `n` - 1 (`n` > 0): random bits as many as `n` has,
/// drawn again while they are `n` or more (fewer than two tries on average). num-bigint's own
/// `RandBigInt` is built on rand 0.8, not this crate's rand.
fn below<R: rand::Rng + ?Sized>(n: &BigUint, rng: &mut R) -> BigUint {
    let bits = n.bits();
    let mut bytes = vec![0u8; bits.div_ceil(8) as usize];
    loop {
        rng.fill_bytes(&mut bytes);
        // Clear the bits of the last byte above the top one of `n`.
        if let Some(top) = bytes.last_mut() {
            *top &= 0xFF >> ((8 - bits % 8) % 8);
        }
        let draw = BigUint::from_bytes_le(&bytes);
        if &draw < n {
            return draw;
        }
    }
}

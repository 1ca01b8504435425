//! The nodes of a decision diagram, kept in blocks.
//!
//! A diagram grows one node at a time to tens of millions of nodes. In one `Vec` it would
//! double: while it moves, the old and the new array are both there, and the new one may be
//! nearly twice what the nodes need (the empty 6x6 grid's 9.3 million nodes, 111 MB, took an
//! array of 201 MB, and 302 MB while it moved). Full-size blocks are never moved, so the
//! diagram holds its nodes and at most one block more, and its memory can be counted as it
//! grows; only the first block doubles, from 12 KiB to its 768 KiB, so that a small diagram
//! takes little.

/// A node: `(option, lo, hi)`.
pub(super) type Node = (u32, u32, u32);

/// A list of nodes in blocks of [`Nodes::BLOCK`], the first of which grows by doubling from
/// [`Nodes::FIRST`], so that a small diagram takes little memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Nodes {
    blocks: Vec<Vec<Node>>,
    len: usize,
    /// The nodes the blocks have room for.
    capacity: usize,
}

impl Nodes {
    /// Nodes in a block: 768 KiB of them, small beside any memory a large diagram is given and
    /// large enough that the list of blocks stays short (1,400 blocks for 1 GiB).
    pub(super) const BLOCK: usize = 1 << 16;

    /// Nodes of the first block at first: 12 KiB.
    const FIRST: usize = 1 << 10;

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The nodes the blocks have room for.
    pub(super) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The room for nodes that the next push adds: none while the last block has room.
    pub(super) fn growth(&self) -> usize {
        match self.blocks.last() {
            None => Nodes::FIRST,
            Some(last) if last.len() < last.capacity() => 0,
            Some(last) if last.capacity() < Nodes::BLOCK => last.capacity(),
            Some(_) => Nodes::BLOCK,
        }
    }

    pub(super) fn push(&mut self, node: Node) {
        let growth = self.growth();
        match self.blocks.last_mut() {
            Some(last) if growth > 0 && last.capacity() < Nodes::BLOCK => {
                last.reserve_exact(growth);
            }
            _ if growth > 0 => self.blocks.push(Vec::with_capacity(growth)),
            _ => {}
        }
        self.capacity += growth;
        self.blocks.last_mut().expect("a block has room").push(node);
        self.len += 1;
    }

    pub(super) fn get(&self, i: usize) -> Node {
        self.blocks[i / Nodes::BLOCK][i % Nodes::BLOCK]
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Node> {
        self.blocks.iter().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_across_blocks_keep_their_order_and_room() {
        let mut nodes = Nodes::default();
        const BLOCK: usize = Nodes::BLOCK;
        let n = BLOCK as u32 + 3;
        for i in 0..n {
            nodes.push((i, i + 1, i + 2));
        }
        assert_eq!(nodes.len(), n as usize);
        assert_eq!(nodes.capacity(), 2 * BLOCK);
        assert_eq!(nodes.growth(), 0);
        assert_eq!(
            nodes.get(BLOCK + 1),
            (BLOCK as u32 + 1, BLOCK as u32 + 2, BLOCK as u32 + 3)
        );
        assert!(nodes.iter().zip(0..).all(|(&(o, _, _), i)| o == i));
    }
}

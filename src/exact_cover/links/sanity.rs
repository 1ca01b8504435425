//! Knuth's `sanity()`: every invariant of the links, checked, for debug builds and tests.

use super::{COVERED, Item, Link, Links, SECONDARY_LEN, STRIDE};

/// A broken invariant of the links, found by [`Dlx::sanity`](crate::exact_cover::Dlx::sanity). Nodes and items are node
/// numbers in the block (items are their headers, 1-based).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    /// A `down` link that is not the offset of a node of the block.
    #[error("node {node}: down link {link} is not a node")]
    OutOfBlock {
        /// The node whose link is bad.
        node: u32,
        /// The link, as a byte offset.
        link: u32,
    },
    /// A node whose `up` does not lead back.
    #[error("item {item}: node {node}'s up link does not lead back")]
    BrokenUpLink {
        /// The item whose list is broken.
        item: u32,
        /// The node.
        node: u32,
    },
    /// A node in an item's list that names another item.
    #[error("item {item}: node {node} names item {names}")]
    WrongItem {
        /// The item whose list holds the node.
        item: u32,
        /// The node.
        node: u32,
        /// The item it names.
        names: u32,
    },
    /// An item's list that does not come back to its header.
    #[error("item {item}: its list does not close")]
    Unclosed {
        /// The item.
        item: u32,
    },
    /// An item whose `len` is not the length of its list.
    #[error("item {item}: len {len} but {nodes} nodes")]
    WrongLen {
        /// The item.
        item: u32,
        /// Its `len`.
        len: u32,
        /// The nodes in its list.
        nodes: u32,
    },
    /// The count of empty active primary items is wrong.
    #[error("{empty} active primary items are empty, but the count says {counted}")]
    EmptyCount {
        /// The true number.
        empty: u32,
        /// The count kept.
        counted: u32,
    },
    /// The count of active primary items kept beside the `len`s in bytes is wrong.
    #[error("{active} primary items are active, but the count says {counted}")]
    ActiveCount {
        /// The true number.
        active: u32,
        /// The count kept.
        counted: u32,
    },
    /// A primary item's `len` kept in a byte is wrong.
    #[error("item {item}: len {len} (at most 255), but its byte says {kept}")]
    ByteLen {
        /// The item.
        item: u32,
        /// Its `len`, saturated at 255 (255 also when covered).
        len: u8,
        /// The byte.
        kept: u8,
    },
}

impl Links {
    /// Checks every invariant of the links, like Knuth's `sanity`: each item's list is a
    /// proper circular doubly linked list whose nodes name the item and whose length is the
    /// item's `len`, and the count of empty primary items is right. Items are named by their
    /// header's node number (1-based, primary items first).
    pub(crate) fn sanity(&self) -> Result<(), LinkError> {
        let in_block =
            |o: u32| o.is_multiple_of(STRIDE) && ((o / STRIDE) as usize) < self.node_count;
        let node = |o: u32| o / STRIDE;
        for h in (1..=self.item_count).map(|i| i * STRIDE) {
            let mut count = 0u32;
            let mut p = h;
            loop {
                // `p` is `h` or a link checked below.
                let next = self.node(Link(p)).down.0;
                if !in_block(next) {
                    return Err(LinkError::OutOfBlock {
                        node: node(p),
                        link: next,
                    });
                }
                let below = self.node(Link(next));
                if below.up.0 != p {
                    return Err(LinkError::BrokenUpLink {
                        item: node(h),
                        node: node(next),
                    });
                }
                if next == h {
                    break;
                }
                if below.top != h {
                    return Err(LinkError::WrongItem {
                        item: node(h),
                        node: node(next),
                        names: node(below.top),
                    });
                }
                count += 1;
                if count as usize > self.node_count {
                    return Err(LinkError::Unclosed { item: node(h) });
                }
                p = next;
            }
            let base = if h > self.primary_count * STRIDE {
                SECONDARY_LEN
            } else {
                0
            };
            let len = self.len(Item(h)) & !COVERED;
            if count + base != len {
                return Err(LinkError::WrongLen {
                    item: node(h),
                    len: len.wrapping_sub(base),
                    nodes: count,
                });
            }
        }
        let empty = (self.primary_headers().iter())
            .filter(|header| header.top == 0)
            .count() as u32;
        if self.track_empty && empty != self.empty_items {
            return Err(LinkError::EmptyCount {
                empty,
                counted: self.empty_items,
            });
        }
        if self.track_bytes {
            let truth = self.byte_lens();
            if truth.active != self.bytes.active {
                return Err(LinkError::ActiveCount {
                    active: truth.active,
                    counted: self.bytes.active,
                });
            }
            let count = self.primary_count as usize;
            let (lens, kept) = (truth.primary_lens(count), self.bytes.primary_lens(count));
            if let Some(i) = (0..count).find(|&i| lens[i] != kept[i]) {
                return Err(LinkError::ByteLen {
                    item: i as u32 + 1,
                    len: lens[i],
                    kept: kept[i],
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_cover::ProblemBuilder;

    fn knuth() -> Links {
        let mut b = ProblemBuilder::new();
        for item in ["a", "b", "c", "d", "e", "f", "g"] {
            b.primary(item).unwrap();
        }
        for option in ["c e", "a d g", "b c f", "a d f", "b g", "d e g"] {
            b.option_by_names(option.split(' ')).unwrap();
        }
        let mut links = Links::try_new(&b.build().unwrap()).unwrap();
        links.track_dead_ends(true);
        links
    }

    /// `knuth()` with one field of node `number` changed through the test hook.
    fn broken(number: u32, change: impl FnOnce(&mut super::super::Node)) -> Links {
        let mut links = knuth();
        // SAFETY: nothing but `sanity` is called on the broken links, and then they are dropped.
        unsafe { links.plant(number, change) };
        links
    }

    #[test]
    fn sanity_names_each_broken_invariant() {
        assert_eq!(knuth().sanity(), Ok(()));
        // Item a (header 1) has options 2 and 4; its first node is node 10 ("a d g" starts
        // after the 7 headers and the 2 nodes of "c e").
        assert_eq!(
            broken(1, |n| n.top += 1).sanity(),
            Err(LinkError::WrongLen {
                item: 1,
                len: 3,
                nodes: 2
            })
        );
        assert_eq!(
            broken(10, |n| n.up = Link(0)).sanity(),
            Err(LinkError::BrokenUpLink { item: 1, node: 10 })
        );
        assert_eq!(
            broken(10, |n| n.top = 2 * STRIDE).sanity(),
            Err(LinkError::WrongItem {
                item: 1,
                node: 10,
                names: 2
            })
        );
        assert_eq!(
            broken(1, |n| n.down = Link(7)).sanity(),
            Err(LinkError::OutOfBlock { node: 1, link: 7 })
        );
        // The counts beside the nodes are not links: changing them breaks no memory invariant.
        let mut links = knuth();
        links.empty_items = 1;
        assert_eq!(
            links.sanity(),
            Err(LinkError::EmptyCount {
                empty: 0,
                counted: 1
            })
        );
        let mut links = knuth();
        links.track_forced_items(true);
        links.bytes.active -= 1;
        assert_eq!(
            links.sanity(),
            Err(LinkError::ActiveCount {
                active: 7,
                counted: 6
            })
        );
        let mut links = knuth();
        links.track_forced_items(true);
        links.bytes.set_len(Item(STRIDE), 1);
        assert_eq!(
            links.sanity(),
            Err(LinkError::ByteLen {
                item: 1,
                len: 2,
                kept: 1
            })
        );
    }
}

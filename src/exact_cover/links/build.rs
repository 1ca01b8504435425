//! Building the links of a problem, and copying them.

use std::ptr::NonNull;

use typed_arena::Arena;

use super::bytes::ByteLens;
use super::{Link, Links, Node, SECONDARY_LEN, STRIDE};
use crate::exact_cover::problem::{ItemKind, Problem};
use crate::{Error, ErrorKind, Result};

impl Links {
    /// Builds the links of a plain problem, or says why it cannot: a problem with colours or
    /// multiplicities is an [`ErrorKind::NotPlain`] error.
    pub(crate) fn try_new(problem: &Problem) -> Result<Links> {
        let what = match (problem.has_colors(), problem.has_multiplicities()) {
            (false, false) => None,
            (true, false) => Some("colours"),
            (false, true) => Some("multiplicities"),
            (true, true) => Some("colours and multiplicities"),
        };
        if let Some(what) = what {
            return Err(Error::new(ErrorKind::NotPlain { what }));
        }
        let item_count = problem.item_count();
        let primary_count = problem.primary_count();

        // Headers: primary items first, then secondary, each in declaration order.
        let mut item_of_header = vec![u32::MAX];
        let mut header_of_item = vec![0usize; item_count];
        for kind in [ItemKind::Primary, ItemKind::Secondary] {
            for item in (0..item_count).filter(|&i| problem.item_kind(i) == kind) {
                header_of_item[item] = item_of_header.len();
                item_of_header.push(item as u32);
            }
        }

        // Built with indices first, then scaled to byte offsets.
        let offset = |index: usize| (index as u32) * STRIDE;
        let total = item_count + 1 + problem.node_count();
        let mut nodes = Vec::with_capacity(total);
        nodes.push(Node::default());
        for h in 1..=item_count {
            nodes.push(Node {
                up: Link(offset(h)),
                down: Link(offset(h)),
                top: 0,
                option: u32::MAX,
            });
        }
        let mut option_span = Vec::with_capacity(problem.option_count());
        for (k, option) in problem.options().enumerate() {
            let first = nodes.len();
            for &item in option {
                let h = header_of_item[item];
                let here = Link(offset(nodes.len()));
                let last = nodes[h].up;
                nodes.push(Node {
                    up: last,
                    down: Link(offset(h)),
                    top: offset(h),
                    option: k as u32,
                });
                nodes[(last.0 / STRIDE) as usize].down = here;
                nodes[h].up = here;
                nodes[h].top += 1;
            }
            option_span.push((offset(first), offset(nodes.len())));
        }
        debug_assert_eq!(nodes.len(), total);

        for header in &mut nodes[primary_count + 1..=item_count] {
            header.top += SECONDARY_LEN;
        }
        let empty_items = nodes[1..=primary_count]
            .iter()
            .filter(|header| header.top == 0)
            .count() as u32;

        let arena = Arena::with_capacity(nodes.len());
        let node_count = nodes.len();
        let nodes = block_pointer(arena.alloc_extend(nodes));
        Ok(Links {
            _arena: arena,
            nodes,
            node_count,
            item_count: item_count as u32,
            primary_count: primary_count as u32,
            track_empty: false,
            empty_items,
            track_bytes: false,
            bytes: ByteLens::new(item_count + 1),
            option_span,
            item_of_header,
            forced: Vec::new(),
            pristine: None,
        })
    }
}

/// The pointer through which all of a block's nodes are reached. It is taken from the whole
/// slice, so that it may address every node of the block: a pointer made from a reference to
/// node 0 alone could address only that node.
fn block_pointer(block: &mut [Node]) -> NonNull<Node> {
    NonNull::new(block.as_mut_ptr()).expect("a slice's pointer is never null")
}

impl Clone for Links {
    fn clone(&self) -> Links {
        let arena = Arena::with_capacity(self.node_count);
        let nodes = block_pointer(arena.alloc_extend(self.block().iter().copied()));
        Links {
            _arena: arena,
            nodes,
            node_count: self.node_count,
            item_count: self.item_count,
            primary_count: self.primary_count,
            track_empty: self.track_empty,
            empty_items: self.empty_items,
            track_bytes: self.track_bytes,
            bytes: self.bytes.clone(),
            option_span: self.option_span.clone(),
            item_of_header: self.item_of_header.clone(),
            forced: self.forced.clone(),
            pristine: self.pristine.clone(),
        }
    }
}

//! Explicit game trees, node by node: for tests on small hand-made trees (such as Wilson,
//! Parker & Nau's Fig. 2) and for random trees. Node 0 is the root; each node records the
//! player to move; leaves carry a utility from Max's point of view.

use rand::RngExt;
use rand::rngs::ChaCha8Rng;

use super::Game;
use crate::model::Player;

/// One node of an [`ExplicitTree`].
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An interior node: the player to move and the children's indices.
    Interior(Player, Vec<usize>),
    /// A terminal node and its utility for Max.
    Leaf(f64),
}

/// A game tree given explicitly. States are node indices.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ExplicitTree {
    nodes: Vec<Node>,
}

impl ExplicitTree {
    /// A tree from its nodes (node 0 is the root; children indices must be valid).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::tree::{ExplicitTree, Node};
    /// use pathology::games::Game;
    /// use pathology::model::Player;
    /// let tree = ExplicitTree::new(vec![
    ///     Node::Interior(Player::Max, vec![1, 2]),
    ///     Node::Leaf(0.0),
    ///     Node::Leaf(1.0),
    /// ]);
    /// assert_eq!(tree.moves(&0), vec![1, 2]);
    /// assert_eq!(tree.utility(&2), Some(1.0));
    /// ```
    pub fn new(nodes: Vec<Node>) -> Self {
        ExplicitTree { nodes }
    }

    /// A uniform tree of the given branching factor and depth, Max to move at the root and
    /// the players alternating, with leaf utilities drawn uniformly from the integers
    /// `0..=max_value` (small ranges make ties, which is what alpha-beta's bounds need).
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::ExplicitTree;
    /// use rand::SeedableRng;
    /// let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(1);
    /// let tree = ExplicitTree::random_uniform(2, 3, 2, &mut rng);
    /// assert_eq!(tree.len(), 15);
    /// ```
    pub fn random_uniform(
        branching: usize,
        depth: u32,
        max_value: u32,
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let mut nodes = vec![];
        fn build(
            nodes: &mut Vec<Node>,
            player: Player,
            b: usize,
            depth: u32,
            max_value: u32,
            rng: &mut ChaCha8Rng,
        ) -> usize {
            let index = nodes.len();
            if depth == 0 {
                nodes.push(Node::Leaf(f64::from(rng.random_range(0..=max_value))));
                return index;
            }
            nodes.push(Node::Interior(player, Vec::with_capacity(b)));
            let children: Vec<usize> = (0..b)
                .map(|_| build(nodes, player.opponent(), b, depth - 1, max_value, rng))
                .collect();
            nodes[index] = Node::Interior(player, children);
            index
        }
        build(&mut nodes, Player::Max, branching, depth, max_value, rng);
        ExplicitTree { nodes }
    }

    /// Number of nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::tree::{ExplicitTree, Node};
    /// use pathology::model::Player;
    /// let tree = ExplicitTree::new(vec![
    ///     Node::Interior(Player::Max, vec![1, 2]),
    ///     Node::Leaf(0.0),
    ///     Node::Leaf(1.0),
    /// ]);
    /// assert_eq!(tree.len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes.
    ///
    /// # Examples
    ///
    /// ```
    /// use pathology::games::tree::{ExplicitTree, Node};
    /// assert!(ExplicitTree::default().is_empty());
    /// assert!(!ExplicitTree::new(vec![Node::Leaf(1.0)]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl Game for ExplicitTree {
    type State = usize;
    type Move = usize;

    fn to_move(&self, state: &usize) -> Player {
        match &self.nodes[*state] {
            Node::Interior(player, _) => *player,
            Node::Leaf(_) => Player::Max,
        }
    }

    /// Moves are the children's node indices.
    fn moves(&self, state: &usize) -> Vec<usize> {
        match &self.nodes[*state] {
            Node::Interior(_, children) => children.clone(),
            Node::Leaf(_) => Vec::new(),
        }
    }

    fn play(&self, _state: &usize, mv: usize) -> usize {
        mv
    }

    fn utility(&self, state: &usize) -> Option<f64> {
        match &self.nodes[*state] {
            Node::Leaf(u) => Some(*u),
            Node::Interior(..) => None,
        }
    }
}

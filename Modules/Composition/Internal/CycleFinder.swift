/// Finds dependency cycles in a directed graph given as adjacency lists over dense indexes.
enum CycleFinder {
    /// Every cycle reachable by a depth-first search that visits roots in index order and edges
    /// in list order, each as the path of indexes from its first node back to it
    /// (`[a, b, c, a]`). A cycle is reported once, from the node where the search entered it.
    ///
    /// Complexity: O(V + E), iterative (no recursion depth limit).
    static func cycles(nodeCount: Int, edges: [[Int]]) -> [[Int]] {
        enum Mark: UInt8 {
            case unvisited
            case onStack
            case done
        }
        var marks = [Mark](repeating: .unvisited, count: nodeCount)
        var cycles: [[Int]] = []
        var path: [Int] = []
        var nextEdge: [Int] = []
        for root in 0..<nodeCount where marks[root] == .unvisited {
            path = [root]
            nextEdge = [0]
            marks[root] = .onStack
            while let node = path.last {
                let edgeIndex = nextEdge[nextEdge.count - 1]
                if edgeIndex < edges[node].count {
                    nextEdge[nextEdge.count - 1] += 1
                    let target = edges[node][edgeIndex]
                    switch marks[target] {
                    case .unvisited:
                        marks[target] = .onStack
                        path.append(target)
                        nextEdge.append(0)
                    case .onStack:
                        if let start = path.lastIndex(of: target) {
                            cycles.append(Array(path[start...]) + [target])
                        }
                    case .done:
                        break
                    }
                } else {
                    marks[node] = .done
                    path.removeLast()
                    nextEdge.removeLast()
                }
            }
        }
        return cycles
    }
}

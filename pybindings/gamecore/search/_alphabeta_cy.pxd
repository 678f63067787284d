# The compiled alpha-beta Searcher (_alphabeta_cy.pyx beside this file), declared here so
# that the multi-player searches (_multiplayer_cy.pyx) reuse its
# transposition table, limits, clock and principal-variation table by subclassing it.
from libc.stdint cimport int8_t, int16_t, int32_t, uint64_t
from gamecore._game_cy cimport GameCore

cdef enum:
    C_MAX_PLY = 128
    MAX_WEIGHTS = 16
    C_HISTORY_SIZE = 128
    ERROR_SCORE = -2147483647   # returned with a Python exception set
    C_MPC_DEPTHS = 32           # Multi-ProbCut's table: remaining depths (_options.MPC_DEPTHS)
    C_MPC_EMPTIES = 128         # and numbers of empty squares (_options.MPC_EMPTIES)

cdef struct TTEntry:
    uint64_t key
    int32_t score
    int16_t move
    int8_t depth
    int8_t flag       # 0: empty slot

cdef void sort_by_key(int* moves, long long* keys, int count) noexcept nogil

cdef class Searcher:
    cdef TTEntry* table
    cdef void* table_block    # what to free: the table lies inside it (gc_table_alloc)
    cdef uint64_t mask
    cdef readonly Py_ssize_t tt_entries
    cdef Py_ssize_t tt_filled     # entries not empty (stores into an empty slot since the last clear)
    cdef bint busy                # a search runs: search, __init__ and clear refuse
    # State of the search under way.
    cdef GameCore core            # the alpha-beta search's own copy of the position
    cdef int weights[MAX_WEIGHTS]
    cdef object evaluator
    cdef bint has_evaluator
    cdef object view              # alpha-beta: wrap(core) -> the position an evaluation gets
    cdef long long nodes
    cdef long long node_limit
    cdef long long tt_hits
    cdef double start
    cdef double deadline
    cdef bint cpu_clock           # deadlines in the thread's CPU time, not wall time
    cdef double next_poll
    cdef bint poll_signals        # enter() looks for Ctrl-C (the alpha-beta search)
    cdef bint interrupted         # a signal handler raised (its exception is set)
    cdef bint aborted
    cdef bint stop_requested      # stop() was called: enter() aborts at its next clock check
    cdef bint hit_horizon
    cdef int pv[C_MAX_PLY][C_MAX_PLY]
    cdef int pv_len[C_MAX_PLY]
    cdef int killers[C_MAX_PLY][2]
    cdef bint root_filtered
    cdef uint64_t root_allowed[2]   # bit set of the allowed root moves (code + 2)
    cdef long long history[C_HISTORY_SIZE]
    # The iteration under way: the move the answer is otherwise (the last iteration's best),
    # whether the root has searched it to the end, and the root's best score so far.
    cdef int last_best
    cdef bint last_best_searched
    cdef int root_score
    # Multi-ProbCut (_alphabeta_py's docstring): on, the probes' nesting, and the table.
    cdef bint mpc_on
    cdef int mpc_level
    cdef int mpc_shallow[C_MPC_DEPTHS]
    cdef int mpc_slope[C_MPC_EMPTIES * C_MPC_DEPTHS]
    cdef int mpc_high[C_MPC_EMPTIES * C_MPC_DEPTHS]
    cdef int mpc_low[C_MPC_EMPTIES * C_MPC_DEPTHS]

    # nogil: the alpha-beta search runs without the GIL unless it calls a Python evaluation.
    cdef object run(self, int max_depth, bint minimax, bint use_tt, bint aspiration, object progress)
    cdef int iteration(self, int depth, int last, bint minimax, bint use_tt, bint aspiration) except? ERROR_SCORE nogil
    cdef TTEntry* tt_probe(self, uint64_t key) noexcept nogil
    cdef void tt_store(self, TTEntry* entry, uint64_t key, int score, int move, int depth, int flag) noexcept nogil
    cdef int root_moves(self, int* moves, int count) noexcept nogil
    cdef bint root_allowed_move(self, int move) noexcept nogil
    cdef int root_search(self, int depth, int alpha, int beta, bint minimax, bint use_tt) except? ERROR_SCORE nogil
    cdef void root_searched(self, int move, int score, bint better) noexcept nogil
    cdef void order(self, int* moves, int count, bint by_history) noexcept nogil
    cdef int front_moves(self, int* moves, int count, int first, int ply) noexcept nogil
    cdef int enter(self) noexcept nogil
    cdef int evaluate_node(self) except? ERROR_SCORE nogil
    cdef void update_pv(self, int ply, int move) noexcept nogil
    cdef int open_node(self, int depth, int ply, int* moves, int* count) except? ERROR_SCORE nogil
    cdef int leaf(self, int move, int ply) noexcept nogil
    cdef int minimax(self, int depth, int ply) except? ERROR_SCORE nogil
    cdef int alphabeta(self, int depth, int alpha, int beta, int ply, bint use_tt) except? ERROR_SCORE nogil
    cdef int probcut(self, int depth, int alpha, int beta, int ply, bint use_tt, bint* cut) except? ERROR_SCORE nogil

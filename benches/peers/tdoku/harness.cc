// Reads 81-character puzzles, one per line ('#' lines and blank lines skipped), counts each
// one's solutions up to 2 with tdoku's solver and prints the first with the count, as
// `quadrille solve --limit 2` does. tdoku's solve call returns a solution only when asked for
// one, so the count goes through its enumeration, which hands each solution to a callback. Built by benches/peers/tdoku/build.sh against tdoku's
// sources, fetched outside the repository.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>

#include "tdoku.h"

// Keeps the first solution the enumeration reports.
static void keep_first(const char *solution, void *first) {
    char *kept = static_cast<char *>(first);
    if (kept[0] == 0) std::memcpy(kept, solution, 81);
}

// With --stats: no output but, on stderr, tdoku's own search figures counting each puzzle up
// to 2 (its guesses, and the share of puzzles solved without one), for the harness's table.
static int stats(std::ifstream &input) {
    std::string line;
    char solution[82] = {0};
    size_t puzzles = 0, guesses = 0, no_guess = 0;
    while (std::getline(input, line)) {
        if (line.empty() || line[0] == '#' || line.size() < 81) continue;
        for (char &c : line)
            if (c == '0') c = '.';
        size_t guessed = 0;
        TdokuSolverDpllTriadSimd(line.c_str(), 2, 0, solution, &guessed);
        puzzles++;
        guesses += guessed;
        if (guessed == 0) no_guess++;
    }
    std::fprintf(stderr, "%.1f guesses/puzzle, %.1f%% without guessing\n",
                 puzzles ? double(guesses) / puzzles : 0.0,
                 puzzles ? 100.0 * no_guess / puzzles : 0.0);
    return 0;
}

int main(int argc, char **argv) {
    bool want_stats = argc == 3 && std::strcmp(argv[1], "--stats") == 0;
    if (argc != 2 && !want_stats) {
        std::fprintf(stderr, "usage: tdoku-peer [--stats] FILE\n");
        return 2;
    }
    std::ifstream input(argv[argc - 1]);
    if (!input) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    if (want_stats) return stats(input);
    std::string line, out;
    char solution[82] = {0};
    while (std::getline(input, line)) {
        if (line.empty() || line[0] == '#') continue;
        if (line.size() < 81) {
            out += "error\n";
            continue;
        }
        for (char &c : line)
            if (c == '0') c = '.';  // tdoku reads '.' for an empty cell
        solution[0] = 0;
        size_t count = TdokuEnumerate(line.c_str(), 2, keep_first, solution);
        if (count == 0) {
            out += "unsolvable\n";
        } else {
            out.append(solution, 81);
            out += ' ';
            out += std::to_string(count);
            out += '\n';
        }
        if (out.size() > (1 << 16)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

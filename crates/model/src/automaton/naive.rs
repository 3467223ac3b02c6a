//! A plain per-cell reference implementation, for tests: slow and obviously right.
//!
//! It computes the recurrence literally on a window of Z² wider than the
//! frames, reading any cell outside the window as 0, and hands back the whole
//! window so a test can see that nothing outside the n x n square ever
//! becomes non-zero. The arithmetic is a parameter: `bool` with XOR for
//! parity, big integers for exact values.

/// Frames 0..=`last` on the window `0 <= i, j <= last + 1` (1-based cell
/// coordinates, so row and column 0 lie outside the board).
///
/// `frames[n][i][j]` is a_{i,j}(n).
pub fn frames_on_window<T: Clone>(
    last: usize,
    zero: T,
    one: T,
    add: impl Fn(&T, &T) -> T,
) -> Vec<Vec<Vec<T>>> {
    let side = last + 2;
    let blank = vec![vec![zero.clone(); side]; side];
    let mut frames = vec![blank.clone()];
    if last == 0 {
        return frames;
    }
    let mut first = blank.clone();
    first[1][1] = one;
    frames.push(first);
    for n in 2..=last {
        let at = |frame: &Vec<Vec<T>>, i: isize, j: isize| -> T {
            if i < 0 || j < 0 || i as usize >= side || j as usize >= side {
                zero.clone()
            } else {
                frame[i as usize][j as usize].clone()
            }
        };
        let (older, newer) = (&frames[n - 2], &frames[n - 1]);
        let mut frame = blank.clone();
        for (i, row) in frame.iter_mut().enumerate() {
            for (j, cell) in row.iter_mut().enumerate() {
                let (i, j) = (i as isize, j as isize);
                let mut sum = at(newer, i, j);
                sum = add(&sum, &at(newer, i - 1, j));
                sum = add(&sum, &at(newer, i, j - 1));
                sum = add(&sum, &at(newer, i - 1, j - 1));
                sum = add(&sum, &at(older, i - 1, j - 1));
                *cell = sum;
            }
        }
        frames.push(frame);
    }
    frames
}

/// Frame `n`'s n x n square out of a window from [`frames_on_window`]:
/// `square[i-1][j-1]` is a_{i,j}(n).
pub fn square<T: Clone>(window: &[Vec<T>], n: usize) -> Vec<Vec<T>> {
    (1..=n).map(|i| window[i][1..=n].to_vec()).collect()
}

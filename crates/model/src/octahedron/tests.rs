//! Cross-checks of the section model against independent methods.

use std::collections::BTreeSet;

use super::brute;
use super::level::Level;
use super::section::{aligned_cells, count_diamonds, exact_area, Cut, Diamond, Section};
use crate::error::DEFAULT_MEMORY_LIMIT;
use crate::BitGrid;

/// P(m, m) by the four-heap Nim criterion, independent of any geometry.
fn p_cells(m: usize) -> BitGrid {
    BitGrid::from_fn(m, m, |r, c| {
        let (i, j) = (r + 1, c + 1);
        (i - 1) ^ (j - 1) ^ (m - i) ^ (m - j) == 0
    })
}

fn sorted(section: &Section) -> Vec<Diamond> {
    let mut d = section.diamonds().to_vec();
    d.sort_unstable();
    d
}

fn some_levels(n: u32) -> Vec<Level> {
    let top = 1u64 << n;
    let mut levels: Vec<Level> = (1..=top).map(|m| Level::integer(n, m).unwrap()).collect();
    levels.extend((0..top).map(|m| Level::half(n, m).unwrap()));
    for text in ["0", "0.37", "0.5", "0.999", "1/3", "2/7", "0.001", "1"] {
        levels.push(Level::parse_r(text).unwrap());
    }
    levels
}

#[test]
fn aligned_integer_sections_are_the_p_positions() {
    for n in 0..=6u32 {
        for m in 1..=(1u64 << n) {
            let cells =
                aligned_cells(n, m, DEFAULT_MEMORY_LIMIT, &crate::Control::default()).unwrap();
            assert_eq!(cells, p_cells(m as usize), "H({n},{m})");
            // The in-memory section gives the same board, one diamond per cell.
            let section = Section::compute(
                n,
                Level::integer(n, m).unwrap(),
                u64::MAX,
                &crate::Control::default(),
            )
            .unwrap();
            assert_eq!(section.aligned().as_ref(), Some(&cells));
            assert_eq!(section.diamonds().len() as u64, cells.count_ones());
        }
    }
    // Large boards go through the stamped walk with big stamps.
    for m in [2731u64, 3000, 4095] {
        assert_eq!(
            aligned_cells(12, m, DEFAULT_MEMORY_LIMIT, &crate::Control::default()).unwrap(),
            p_cells(m as usize)
        );
    }
}

#[test]
fn spec_counts_hold() {
    // g(m) for m = 1..16 (SPEC §1) and sum_{m<=2^n} g(m) = (4^n + 6^n)/2.
    let g = [
        1u128, 4, 5, 16, 9, 20, 21, 64, 25, 36, 29, 80, 41, 84, 85, 256,
    ];
    for (m, &want) in g.iter().enumerate() {
        let level = Level::integer(4, m as u64 + 1).unwrap();
        assert_eq!(count_diamonds(4, level).unwrap(), want);
    }
    for n in 0..=12u32 {
        let sum: u128 = (1..=(1u64 << n))
            .map(|m| count_diamonds(n, Level::integer(n, m).unwrap()).unwrap())
            .sum();
        assert_eq!(sum, (4u128.pow(n) + 6u128.pow(n)) / 2, "n = {n}");
    }
}

#[test]
fn half_levels_are_half_size_copies_of_odd_levels() {
    // Every coordinate times k, then the minimum corner translated to 0.
    let normalised = |section: &Section, k: i64| -> Vec<Diamond> {
        let d: Vec<Diamond> = section
            .diamonds()
            .iter()
            .map(|d| Diamond {
                cx: d.cx * k,
                cy: d.cy * k,
                h: d.h * k,
            })
            .collect();
        let (mx, my) = (
            d.iter().map(|d| d.cx - d.h).min().unwrap(),
            d.iter().map(|d| d.cy - d.h).min().unwrap(),
        );
        let mut d: Vec<Diamond> = d
            .into_iter()
            .map(|d| Diamond {
                cx: d.cx - mx,
                cy: d.cy - my,
                h: d.h,
            })
            .collect();
        d.sort_unstable();
        d
    };
    for n in 1..=6u32 {
        for m in 0..(1u64 << n) {
            let half = Section::compute(
                n,
                Level::half(n, m).unwrap(),
                u64::MAX,
                &crate::Control::default(),
            )
            .unwrap();
            let big = 1i64 << (n + 2);
            if 2 * m < 1u64 << n {
                // (1/2)·H(n, 2m+1): halve every coordinate, i.e. read its units
                // as 1/(2D).
                let odd = Section::compute(
                    n,
                    Level::integer(n, 2 * m + 1).unwrap(),
                    u64::MAX,
                    &crate::Control::default(),
                )
                .unwrap();
                // Both in units of 1/big (odd halved on the way).
                let halved = normalised(&odd, big / (2 * odd.cut().scale()));
                assert_eq!(
                    normalised(&half, big / half.cut().scale()),
                    halved,
                    "H({n},{m}.5)"
                );
            }
            // Same plane, one order finer: the half level is H(n+1, 2m+1) itself,
            // and turned onto the board it is P(2m+1, 2m+1).
            let fine = Section::compute(
                n + 1,
                Level::integer(n + 1, 2 * m + 1).unwrap(),
                u64::MAX,
                &crate::Control::default(),
            )
            .unwrap();
            assert_eq!(sorted(&half), sorted(&fine));
            assert_eq!(half.aligned(), Some(p_cells(2 * m as usize + 1)));
        }
    }
}

#[test]
fn pruned_walk_equals_brute_force() {
    for n in 0..=5u32 {
        for level in some_levels(n) {
            let section = Section::compute(n, level, u64::MAX, &crate::Control::default()).unwrap();
            assert_eq!(
                sorted(&section),
                brute::section(n, level).unwrap(),
                "n={n} r={level}"
            );
            assert_eq!(
                count_diamonds(n, level).unwrap(),
                section.diamonds().len() as u128
            );
        }
    }
}

#[test]
fn stamped_and_streamed_walks_agree_in_order() {
    for (n, text) in [
        (9u32, "0.37"),
        (10, "0.6"),
        (12, "1/3"),
        (30, "3e-7"),
        (36, "1e-9"),
        (3, "0.9"),
    ] {
        let level = Level::parse_r(text).unwrap();
        let section = Section::compute(n, level, u64::MAX, &crate::Control::default()).unwrap();
        assert!(!section.diamonds().is_empty());
        let streamed: Vec<Diamond> = Cut::new(n, level).unwrap().diamonds().collect();
        assert_eq!(section.diamonds(), &streamed[..]);
    }
}

#[test]
fn area_is_the_sum_of_diamond_areas_and_the_raster_of_s_n() {
    for n in 0..=4u32 {
        for level in some_levels(n) {
            let section = Section::compute(n, level, u64::MAX, &crate::Control::default()).unwrap();
            let cut = *section.cut();
            let (area, scale) = section.area();
            assert_eq!(exact_area(n, level).unwrap(), (area, scale));
            if scale > 400 {
                continue; // the raster below has (2rD)² cells: keep it small
            }
            // Raster in (u, v) at the finest grid 1/D: a unit cell centred at
            // (U+1/2, V+1/2) is in the section iff that point is in S_n, tested
            // by the brute-force point location. Points in units of 1/(2D):
            // x = (u+v)/2 -> U+V+1, y = (u-v)/2 -> U-V, z -> 2·plane.
            let extent = scale - cut.plane(); // r·D
            let mut cells = 0u128;
            let mut union = BTreeSet::new();
            for u in -extent..extent {
                for v in -extent..extent {
                    let p = [u + v + 1, u - v, 2 * cut.plane()];
                    if brute::contains(n, 2 * scale, p) {
                        cells += 1;
                        union.insert((u, v));
                    }
                }
            }
            // A cell has area 1/D² in (u, v), i.e. 1/(2D²) in (x, y); a
            // diamond's area is 2h²/D², so cells = 2·Σ 2h² = 2·area.
            assert_eq!(cells, 2 * area, "n={n} r={level}");
            // And the union of the squares covers exactly those cells (no overlaps).
            let mut covered = BTreeSet::new();
            for s in section.squares() {
                for u in s.cu - s.h..s.cu + s.h {
                    for v in s.cv - s.h..s.cv + s.h {
                        assert!(covered.insert((u, v)), "squares overlap");
                    }
                }
            }
            assert_eq!(covered, union);
        }
    }
}

#[test]
fn integer_level_area_matches_g_of_m() {
    // H(n,m) is g(m) diamonds of half-diagonal 2^-n: area 2·g(m)/4^n.
    for m in 1..=64u64 {
        let level = Level::integer(6, m).unwrap();
        let (area, scale) = exact_area(6, level).unwrap();
        let g = count_diamonds(6, level).unwrap();
        assert_eq!(area * 4096, 2 * g * (scale as u128).pow(2));
    }
}

#[test]
fn sections_have_the_four_mirror_symmetries() {
    for n in 0..=6u32 {
        for level in some_levels(n) {
            let set: BTreeSet<Diamond> =
                Section::compute(n, level, u64::MAX, &crate::Control::default())
                    .unwrap()
                    .diamonds()
                    .iter()
                    .copied()
                    .collect();
            let maps: [fn(&Diamond) -> Diamond; 4] = [
                |d| Diamond { cx: -d.cx, ..*d },
                |d| Diamond { cy: -d.cy, ..*d },
                |d| Diamond {
                    cx: d.cy,
                    cy: d.cx,
                    h: d.h,
                },
                |d| Diamond {
                    cx: -d.cy,
                    cy: -d.cx,
                    h: d.h,
                },
            ];
            for map in maps {
                let image: BTreeSet<Diamond> = set.iter().map(map).collect();
                assert_eq!(image, set, "n={n} r={level}");
            }
        }
    }
}

#[test]
fn huge_sections_are_refused_before_work_and_apex_sections_are_cheap() {
    let equator = Level::integer(30, 1 << 30).unwrap();
    assert_eq!(count_diamonds(30, equator).unwrap(), 4u128.pow(30));
    let err = Section::compute(
        30,
        equator,
        DEFAULT_MEMORY_LIMIT,
        &crate::Control::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("S_30"), "{err}");
    let err = aligned_cells(
        30,
        1 << 30,
        DEFAULT_MEMORY_LIMIT,
        &crate::Control::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("aligned"), "{err}");
    let near_apex = Level::parse_r("3e-7").unwrap();
    let section = Section::compute(
        30,
        near_apex,
        DEFAULT_MEMORY_LIMIT,
        &crate::Control::default(),
    )
    .unwrap();
    assert_eq!(
        section.diamonds().len() as u128,
        count_diamonds(30, near_apex).unwrap()
    );
    assert!(!section.diamonds().is_empty());
    // The apex itself (r = 0) is a single point: no diamonds.
    assert_eq!(count_diamonds(30, Level::parse_r("0").unwrap()).unwrap(), 0);
}

#[test]
fn orders_too_fine_for_the_arithmetic_are_refused_with_a_fix() {
    let level = Level::parse_r("0.37").unwrap();
    let err = Cut::new(60, level).unwrap_err().to_string();
    assert!(err.contains("`n`") && err.contains("at most"), "{err}");
    assert!(Cut::new(50, level).is_ok());
}

#[test]
fn level_of_detail_contains_the_fine_section() {
    // S_k ⊇ S_n, so each fine diamond lies inside some coarse one.
    let level = Level::parse_r("0.37").unwrap();
    let k = super::section::detail_order(8, 0.05);
    assert_eq!(k, 5);
    let fine = Section::compute(8, level, u64::MAX, &crate::Control::default()).unwrap();
    let coarse = Section::compute(k, level, u64::MAX, &crate::Control::default()).unwrap();
    let (sf, sc) = (fine.cut().scale(), coarse.cut().scale());
    let f = sf / sc;
    for d in fine.diamonds() {
        assert!(coarse
            .diamonds()
            .iter()
            .any(|c| { (d.cx - c.cx * f).abs() + (d.cy - c.cy * f).abs() + d.h <= c.h * f }));
    }
}

#[test]
fn subtree_areas_are_the_areas_of_the_diamonds_below() {
    for n in 0..=5u32 {
        for level in some_levels(n) {
            let cut = Cut::new(n, level).unwrap();
            let diamonds: Vec<Diamond> = cut.diamonds().collect();
            let inside = |outer: &Diamond, d: &Diamond| {
                (d.cx - outer.cx).abs() + (d.cy - outer.cy).abs() + d.h <= outer.h
            };
            let mut root = None;
            let mut leaves = Vec::new();
            cut.walk(
                |node| {
                    let bound = node.bound();
                    // Sections of other subtrees never enter this octahedron.
                    let below: u128 = diamonds
                        .iter()
                        .filter(|d| inside(&bound, d))
                        .map(Diamond::area_units)
                        .sum();
                    assert_eq!(node.area, below, "n={n} r={level} {node:?}");
                    assert!(node.area <= bound.area_units() && node.area > 0);
                    if node.offset == 0 {
                        assert!(node.is_full(), "cut through its centre: {node:?}");
                    }
                    if node.depth == 0 {
                        root = Some(node.area);
                    }
                    if node.depth == n {
                        assert!(node.is_full());
                        leaves.push(bound);
                    }
                    true
                },
                &crate::Control::default(),
            )
            .unwrap();
            // A full walk meets every diamond, in the walk's order.
            assert_eq!(leaves, diamonds, "n={n} r={level}");
            let (area, _) = exact_area(n, level).unwrap();
            assert_eq!(root.unwrap_or(0), area, "n={n} r={level}");
        }
    }
    // S_30 near r = 1/2: the root's area is the exact area, in O(n).
    for text in ["536870911", "1073741823", "536870911.5"] {
        let level = Level::parse_level(30, text).unwrap();
        let cut = Cut::new(30, level).unwrap();
        let mut root = 0;
        cut.walk(
            |node| {
                root = node.area;
                false
            },
            &crate::Control::default(),
        )
        .unwrap();
        assert_eq!(root, exact_area(30, level).unwrap().0);
    }
}

//! GIF's LZW compression of one frame's palette indices, about three times faster
//! than the `gif` crate's own encoder (`weezl`, least significant bit first).
//!
//! Why not the crate: weezl keeps its dictionary as trees of successors searched
//! one by one, which cost over half of the time of writing an animation over m.
//! Here the dictionary is one open-addressed hash table from (prefix code, next
//! index) to code. Everything that decides the bytes follows weezl: the clear code
//! first, a code's width growing once the dictionary holds more codes than it can
//! name, a clear code (and a fresh dictionary) after code 4095 is taken, and the
//! width bump before the end code, so the GIFs keep the bytes they had when the
//! crate wrote them. The tests check what a reader needs instead of those bytes:
//! weezl's decoder reads back every index of random and drawn frames, and the
//! stream is never longer than the gif crate's.

/// The widest LZW code GIF allows.
const MAX_CODE_BITS: u8 = 12;
/// Codes a dictionary can hold before it must be cleared.
const MAX_CODES: usize = 1 << MAX_CODE_BITS;
/// Hash slots: a power of two over twice the codes, so probes stay short.
const SLOTS: usize = 1 << 13;
/// weezl keeps up to 16 successors of a prefix in a short list; the 17th turns the
/// list into a full table but is itself never entered, so that string gets a code
/// that is never matched. Kept so that the bytes of our GIFs stay those the crate
/// wrote (a decoder reads either).
const LOST_SUCCESSOR: u8 = 16;

/// The minimum code size the gif crate picks for `data`: enough bits for its largest
/// index, at least 2.
pub fn min_code_size(data: &[u8]) -> u8 {
    let largest = data.iter().copied().max().unwrap_or(0);
    (u32::from(largest) + 1)
        .max(4)
        .next_power_of_two()
        .trailing_zeros() as u8
}

/// Codes written least significant bit first.
struct BitWriter {
    out: Vec<u8>,
    bits: u64,
    count: u8,
}

impl BitWriter {
    fn put(&mut self, code: u16, width: u8) {
        self.bits |= u64::from(code) << self.count;
        self.count += width;
        while self.count >= 8 {
            self.out.push(self.bits as u8);
            self.bits >>= 8;
            self.count -= 8;
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.count > 0 {
            self.out.push(self.bits as u8);
        }
        self.out
    }
}

/// The dictionary: (prefix code, index) to the code of the longer string.
struct Dictionary {
    keys: Vec<u32>,
    codes: Vec<u16>,
    /// Strings made so far from each prefix code (up to 17, see [`LOST_SUCCESSOR`]).
    successors: Vec<u8>,
    /// The next code to hand out; also how many codes exist (literals, clear, end).
    next: usize,
    first: usize,
}

impl Dictionary {
    fn new(min_size: u8) -> Dictionary {
        let first = (1usize << min_size) + 2;
        Dictionary {
            keys: vec![0; SLOTS],
            codes: vec![0; SLOTS],
            successors: vec![0; MAX_CODES + 1],
            next: first,
            first,
        }
    }

    fn clear(&mut self) {
        self.keys.fill(0);
        self.successors.fill(0);
        self.next = self.first;
    }

    /// The slot of `key` (0 is never a key: it is stored plus one).
    fn slot(&self, key: u32) -> usize {
        let mut slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - 13)) as usize;
        while self.keys[slot] != 0 && self.keys[slot] != key {
            slot = (slot + 1) & (SLOTS - 1);
        }
        slot
    }
}

/// The LZW code stream of `data` (palette indices below `1 << min_size`), without
/// the leading minimum-code-size byte.
pub fn encode(data: &[u8], min_size: u8) -> Vec<u8> {
    let clear = 1u16 << min_size;
    let end = clear + 1;
    let mut dictionary = Dictionary::new(min_size);
    let mut writer = BitWriter {
        out: Vec::with_capacity(data.len() / 2 + 16),
        bits: 0,
        count: 0,
    };
    let mut width = min_size + 1;
    writer.put(clear, width);
    let mut bytes = data.iter();
    let Some(&first) = bytes.next() else {
        writer.put(end, width);
        return writer.finish();
    };
    let mut current = u16::from(first);
    for &byte in bytes {
        let key = ((u32::from(current) << 8) | u32::from(byte)) + 1;
        let slot = dictionary.slot(key);
        if dictionary.keys[slot] == key {
            current = dictionary.codes[slot];
            continue;
        }
        // A new string: it gets the next code (as weezl, even the one past 4095,
        // which is never written: the dictionary is cleared at once).
        let made = &mut dictionary.successors[usize::from(current)];
        if *made != LOST_SUCCESSOR {
            dictionary.keys[slot] = key;
            dictionary.codes[slot] = dictionary.next as u16;
        }
        *made = made.saturating_add(1);
        dictionary.next += 1;
        writer.put(current, width);
        if dictionary.next > 1 << width && width < MAX_CODE_BITS {
            width += 1;
        }
        if dictionary.next > MAX_CODES {
            writer.put(clear, width);
            dictionary.clear();
            width = min_size + 1;
        }
        current = u16::from(byte);
    }
    writer.put(current, width);
    // The decoder adds an entry on reading that last code, and may widen first.
    if dictionary.next >= 1 << width && width < MAX_CODE_BITS {
        width += 1;
    }
    writer.put(end, width);
    writer.finish()
}

/// The frame buffer the gif crate's `Frame::make_lzw_pre_encoded` makes: the
/// minimum code size, then the code stream.
pub fn pre_encoded(data: &[u8]) -> Vec<u8> {
    let min_size = min_code_size(data);
    let mut buffer = vec![min_size];
    buffer.extend(encode(data, min_size));
    buffer
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The gif crate's own code stream for `data` (weezl inside it), for comparing sizes.
    fn theirs(data: &[u8]) -> Vec<u8> {
        let mut frame = gif::Frame {
            width: data.len() as u16,
            height: 1,
            buffer: std::borrow::Cow::Borrowed(data),
            ..gif::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        frame.buffer.into_owned()
    }

    /// `buffer` (minimum code size, then the code stream) read back by the
    /// reference decoder, weezl's.
    fn decoded(buffer: &[u8]) -> Vec<u8> {
        weezl::decode::Decoder::new(weezl::BitOrder::Lsb, buffer[0])
            .decode(&buffer[1..])
            .expect("the reference decoder reads the stream")
    }

    /// Checks one input: the reference decoder gives back every index, the minimum
    /// code size is the one the gif crate picks, and the stream is no longer than
    /// the gif crate's own.
    fn round_trips(data: &[u8]) -> Result<(), String> {
        let ours = pre_encoded(data);
        let reference = theirs(data);
        if decoded(&ours) != data {
            return Err("decodes to other indices".into());
        }
        if ours[0] != reference[0] {
            return Err(format!("minimum code size {} vs {}", ours[0], reference[0]));
        }
        if ours.len() > reference.len() {
            return Err(format!(
                "{} bytes vs the gif crate's {}",
                ours.len(),
                reference.len()
            ));
        }
        Ok(())
    }

    /// Long inputs cross many dictionary clears; few, many and all 256 colours
    /// give every minimum code size.
    #[test]
    fn lzw_decodes_back_with_the_reference_decoder() {
        let mut state = 12345u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as u32
        };
        for colours in [1u32, 2, 3, 4, 5, 8, 16, 17, 64, 128, 129, 256] {
            for len in [0usize, 1, 2, 3, 100, 5000, 70_000, 400_000] {
                // Runs of random length, as in drawn frames, and some noise.
                let mut data = Vec::with_capacity(len);
                while data.len() < len {
                    let value = (next() % colours) as u8;
                    let run = 1 + (next() % 40) as usize * usize::from(next() % 4 != 0);
                    data.extend(std::iter::repeat_n(value, run.min(len - data.len())));
                }
                if let Err(why) = round_trips(&data) {
                    panic!("{colours} colours, {len} bytes: {why}");
                }
                assert_eq!(pre_encoded(&data), pre_encoded(&data), "deterministic");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn any_indices_decode_back(
            data in proptest::collection::vec(0u8..=255, 0..3000),
            mask in prop_oneof![Just(1u8), Just(3), Just(7), Just(15), Just(255)],
        ) {
            let data: Vec<u8> = data.iter().map(|b| b & mask).collect();
            prop_assert_eq!(round_trips(&data), Ok(()));
        }
    }
}

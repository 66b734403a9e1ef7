//! Leaving the questions for a moment: Ctrl+Z (suspended like a shell job) and Ctrl+] (the
//! agent's message, or the screen underneath).

use super::*;

impl<B: Backend> Session<'_, B> {
    /// Ctrl+Z: inline, the block is erased first (the transcript stays), the cursor under the
    /// transcript; after `fg` the block is drawn again where the cursor is then. Continued in
    /// the background (`bg`), `--timeout` runs from the continue: when it runs out before
    /// `fg`, the flow times out there, writing nothing more to the terminal.
    pub(super) fn suspend(&mut self) -> io::Result<()> {
        let (rows, cols) = self.io.size();
        let t = self.transcript(None);
        if self.region.placement() == Placement::Inline {
            let bytes = self.region.draw(&t, &Block::default(), rows, cols);
            self.io.write(&bytes)?;
        }
        self.region.restart(&t);
        self.record.keep(&self.region, self.cols);
        let idle = self.deadline.map(|d| d.idle());
        let foreground = self.io.suspend(idle)?;
        self.key_came();
        if !foreground {
            return self.time_out();
        }
        Ok(())
    }

    /// A pager opened over the questions of an agent that wrote a message (`--context`) takes
    /// no more rows than the block had: the block never grows under the message, which a
    /// screen with no scrollback (pi's fullscreen hand-over) would lose above it. With the
    /// lines above drawn by the region (`--above`: they come back as the block shrinks) it
    /// takes the rows the block may have, as without `--context`.
    pub(super) fn held_to_the_block(&self, overlay: Overlay) -> Overlay {
        match overlay {
            Overlay::Pager(pager) if self.context.is_some() && !self.region.owns_screen() => {
                Overlay::Pager(pager.at_most(self.block_rows))
            }
            other => other,
        }
    }

    /// Ctrl+]: the agent's message (`--context`) in a pager that opens at its end; without
    /// it, inline, where the message is; on the alternate screen, the screen underneath until
    /// a key.
    pub(super) fn peek(&mut self) -> io::Result<()> {
        match (&self.context, self.region.placement()) {
            (Some(text), _) => {
                let pager = Pager::new(words::PEEK_TITLE.to_string(), text.clone(), true);
                let Overlay::Pager(pager) = self.held_to_the_block(Overlay::Pager(pager)) else {
                    unreachable!("a pager stays a pager")
                };
                self.screens.overlays.push(Overlay::Pager(pager));
            }
            (None, Placement::Inline) => {
                let pager = Pager::new(
                    words::PEEK_TITLE.to_string(),
                    words::PEEK_NONE.to_string(),
                    false,
                );
                self.screens.overlays.push(Overlay::Pager(pager));
            }
            (None, Placement::Full) => {
                self.io.show_main_screen(true)?;
                let now = self.io.now();
                let event = self.io.event(self.deadline.and_then(|d| d.wait(now)))?;
                self.io.show_main_screen(false)?;
                let (rows, cols) = self.io.size();
                self.region.resized(cols, cols, rows, &Vec::new());
                if event == Event::Key(Key::Ctrl('c')) {
                    self.apply(Command::Interrupt)?;
                } else if matches!(event, Event::Key(_)) {
                    self.key_came();
                }
            }
        }
        Ok(())
    }
}

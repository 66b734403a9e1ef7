//! How a question is drawn: the prompt, the options, previews, and the hint line.

use super::{DrawnOption, Mode, QuestionPrompt};
use crate::contract::QuestionType;
use crate::frontend::tty::layers::Cx;
use crate::frontend::tty::menu::Menu;
use crate::text::for_terminal;
use crate::text::{fit, width_of, wrap_head, wrap_words, wrapped_len};
use crate::ui::keymap;
use crate::ui::question::{self as model, Row};
use crate::ui::words;

impl QuestionPrompt {
    /// The block's lines in `mode`, within `cx.height` rows.
    pub fn render(&self, cx: &Cx<'_, '_>, mode: Mode) -> Vec<String> {
        let payload = cx.flow.payload();
        let answers = cx.flow.answers();
        let question = &payload.questions[self.q];
        let (look, width) = (cx.look, cx.width);
        let rows = self.rows(cx);
        let multi = question.kind == QuestionType::Multi;
        let preview = question.kind == QuestionType::Preview;
        // Lines under the prompt that always show.
        let mut fixed: Vec<String> = Vec::new();
        if let Some(note) = model::note_line(answers, self.q) {
            fixed.push(look.hint(&format!("  {note}"), width));
        }
        if let Some((f, shown)) = &self.filter {
            let mut line = words::filter_line(f, shown.len(), question.options.len());
            if width_of(&line) + width_of(words::FILTER_CLEARS) <= width {
                line.push_str(words::FILTER_CLEARS);
            }
            fixed.push(look.hint(&line, width));
        }
        let hint_rows = usize::from(mode == Mode::Menu);
        let (has_desc, has_note) = match self.rows_per_option.get() {
            Some(known) => known,
            None => {
                let known = (
                    question.options.iter().any(|o| o.description.is_some()),
                    (0..question.options.len()).any(|o| answers.option_note(self.q, o).is_some()),
                );
                self.rows_per_option.set(Some(known));
                known
            }
        };
        let per_item = 1 + usize::from(has_desc) + usize::from(has_note);
        let menu_rows = if mode == Mode::Prompt { 0 } else { rows.len() };
        // The rows one menu row takes drawn in one line each: an option's description and note
        // under it; Type your own and Next one row.
        let row_lines = |row: Row| match row {
            Row::Option(o) => {
                1 + usize::from(has_desc && question.options[o].description.is_some())
                    + usize::from(has_note && answers.option_note(self.q, o).is_some())
            }
            _ => 1,
        };
        // Counted up to one past the height: only whether the menu fits matters, and a key
        // at a question of 100,000 options must not count them all.
        let mut all_lines = 0;
        for i in 0..menu_rows {
            all_lines += row_lines(rows.get(i));
            if all_lines > cx.height {
                break;
            }
        }
        // The rows the menu needs in full, and at least (three rows, or all of them).
        let preview_h = if preview && mode != Mode::Prompt {
            self.preview_height(cx, all_lines)
        } else {
            0
        };
        let menu_need = all_lines + preview_h;
        let menu_min = menu_rows.min(3) * per_item + preview_h;
        let room = cx.height.saturating_sub(fixed.len() + hint_rows);
        // The prompt wraps into the rows the menu leaves free, and keeps three at least when the
        // menu can page instead.
        let prompt_max = room
            .saturating_sub(menu_need)
            .max(3.min(room.saturating_sub(menu_min)))
            .max(1);
        let mut lines = self.prompt_rows(cx, prompt_max);
        lines.extend(fixed);
        if mode == Mode::Prompt {
            return lines;
        }
        let avail = cx
            .height
            .saturating_sub(lines.len() + hint_rows + preview_h)
            .max(1);
        // One page when every row fits; pages of the rows that fit at most per row otherwise.
        let per_page = if all_lines <= avail {
            rows.len().max(1)
        } else {
            (avail / per_item).max(1).min(rows.len().max(1))
        };
        self.per_page.set(per_page);
        let active = match mode {
            Mode::Editing(row) => rows.index_of(row).unwrap_or(self.active),
            _ => self.active,
        };
        let menu = Menu::new(rows.len(), per_page, active);
        // The rows the page leaves free: the highlighted option's description takes them.
        let spare = match rows.is_empty() {
            true => 0,
            false => avail.saturating_sub(menu.visible().map(|i| row_lines(rows.get(i))).sum()),
        };
        let to_review = cx.flow.next_is_review(self.q);
        let indent = " ".repeat(
            look.item_indent()
                + if multi { 0 } else { 4 }
                + model::number(question, Row::Option(0)).len()
                + 1,
        );
        // An option's lines depend only on these (the payload and the look stay): the ones
        // drawn for the last frame are taken again when they still match.
        let mut drawn = std::mem::take(&mut *self.drawn.borrow_mut());
        let mut kept: Vec<DrawnOption> = Vec::with_capacity(per_page);
        for i in menu.visible() {
            if rows.is_empty() {
                break;
            }
            let row = rows.get(i);
            let is_active = i == menu.active;
            let editing = mode == Mode::Editing(row);
            let chosen = model::is_chosen(answers, self.q, row);
            let draw = |lines: &mut Vec<String>| {
                let text = model::row_text(payload, answers, self.q, row, editing, to_review);
                // A cut option's highlight says `v` shows it whole, as a cut description does
                // (not on a preview question: there `v` shows the preview).
                let offer_view = is_active && !preview && matches!(row, Row::Option(_));
                let item = |text: &str, multi: bool| {
                    look.item_text(
                        text,
                        width.saturating_sub(look.item_prefix(multi)),
                        offer_view,
                    )
                };
                lines.push(match (row, multi) {
                    (Row::Next, _) => look.select_item(&text, is_active, width),
                    (_, true) => {
                        look.multi_select_item(&item(&text, true), chosen, is_active, width)
                    }
                    (_, false) => {
                        let mark = if chosen { "(\u{2022})" } else { "( )" };
                        let text = item(&[mark, " ", &text].concat(), false);
                        look.select_item(&text, is_active, width)
                    }
                });
                for detail in model::detail_lines(payload, answers, self.q, row) {
                    lines.push(look.hint(&format!("{indent}{detail}"), width));
                }
            };
            match row {
                Row::Option(o) => {
                    let note = answers.option_note(self.q, o);
                    let found = drawn.iter().position(|d| d.option == o);
                    let item = match found.map(|k| drawn.swap_remove(k)) {
                        Some(d) if d.is(width, is_active, chosen, note) => d,
                        _ => {
                            let mut item_lines = Vec::with_capacity(1 + per_item);
                            draw(&mut item_lines);
                            DrawnOption {
                                option: o,
                                width,
                                active: is_active,
                                chosen,
                                note: note.map(str::to_string),
                                lines: item_lines,
                            }
                        }
                    };
                    let whole = match is_active {
                        true => self.description_rows(cx, o, &indent, spare),
                        false => None,
                    };
                    match whole {
                        Some(whole) if item.lines.len() > 1 => {
                            lines.push(item.lines[0].clone());
                            lines.extend(whole);
                            lines.extend(item.lines[2..].iter().cloned());
                        }
                        _ => lines.extend(item.lines.iter().cloned()),
                    }
                    kept.push(item);
                }
                _ => draw(&mut lines),
            }
            if let (true, true, Row::Option(o)) = (preview, is_active, row) {
                lines.extend(self.preview_lines(cx, o, &indent, preview_h));
            }
        }
        *self.drawn.borrow_mut() = kept;
        if mode == Mode::Menu {
            let page = if menu.pages() > 1 {
                format!("[{}/{}]", menu.page() + 1, menu.pages())
            } else {
                String::new()
            };
            lines.push(match cx.status {
                Some(status) => fit(status, width),
                None => self.hint_line(cx, page, (!rows.is_empty()).then(|| rows.get(active))),
            });
        }
        lines
    }

    /// Option `o`'s description word-wrapped under its row (indented by `indent`) in at most
    /// `1 + spare` rows, the last cut with `…` and [`words::DESCRIPTION_MORE`] when more would
    /// follow (not on a preview question: there `v` shows the preview); `None` when it has
    /// none or it fits one row.
    fn description_rows(
        &self,
        cx: &Cx<'_, '_>,
        o: usize,
        indent: &str,
        spare: usize,
    ) -> Option<Vec<String>> {
        let question = &cx.flow.payload().questions[self.q];
        let text = for_terminal(question.options[o].description.as_deref()?);
        let (look, width) = (cx.look, cx.width);
        let w = width.saturating_sub(width_of(indent)).max(1);
        let mut wrapped = wrap_words(&text, w);
        if wrapped.len() <= 1 {
            return None;
        }
        let max = 1 + spare;
        let cut = wrapped.len() > max;
        wrapped.truncate(max);
        let last = wrapped.len() - 1;
        Some(
            wrapped
                .iter()
                .enumerate()
                .map(|(i, line)| match i == last && cut {
                    true => {
                        // Too narrow to say it, or `v` shows the preview: the `…` alone.
                        let says = question.kind != QuestionType::Preview
                            && w >= 3 * width_of(words::DESCRIPTION_MORE);
                        let more = match says {
                            true => words::DESCRIPTION_MORE,
                            false => "",
                        };
                        let head = fit(
                            &format!("{indent}{line}\u{2026}"),
                            width.saturating_sub(width_of(more)),
                        );
                        look.hint(&format!("{head}{more}"), width)
                    }
                    false => look.hint(&format!("{indent}{line}"), width),
                })
                .collect(),
        )
    }

    /// The prompt's rows, framed by the theme, at `cx.width` and at most `prompt_max` rows
    /// (they change only with those: learned once for each).
    fn prompt_rows(&self, cx: &Cx<'_, '_>, prompt_max: usize) -> Vec<String> {
        let mut memo = self.prompt.borrow_mut();
        if let Some((key, lines)) = memo.as_ref() {
            if *key == (cx.width, prompt_max) {
                return lines.clone();
            }
        }
        let payload = cx.flow.payload();
        let question = &payload.questions[self.q];
        let (look, width) = (cx.look, cx.width);
        let prompt = for_terminal(&model::prompt_text(payload, self.q)).into_owned();
        let prompt_width = width.saturating_sub(4).max(1);
        let context = question.context.as_deref().map(for_terminal);
        // A label is a short tag: one that does not fit on the first row with the place would
        // push the prompt down (or out of the rows it has), so it is cut to half a line.
        let prompt = match model::place(payload, self.q) {
            Some(place)
                if wrap_words(&format!("{} \u{b7}", for_terminal(&place)), prompt_width).len()
                    > 1 =>
            {
                format!(
                    "{} \u{b7} {}",
                    fit(&for_terminal(&place), (prompt_width / 2).max(4)),
                    for_terminal(&question.prompt)
                )
            }
            _ => prompt,
        };
        let (mut lines, prompt_rows) =
            prompt_lines(&prompt, context.as_deref(), prompt_width, prompt_max);
        // The prompt's frame (`? … ›`, `…:`) around all its rows: the theme's prefix before
        // the first, its suffix after the last (the context's rows come after it).
        let framed = look.prompt("\u{1}", width);
        let (prefix, suffix) = framed.split_once('\u{1}').unwrap_or(("", ""));
        let reset = if prefix.contains('\u{1b}') {
            "\u{1b}[0m"
        } else {
            ""
        };
        for (i, line) in lines.iter_mut().enumerate() {
            let text = if i == 0 {
                format!("{prefix}{line}")
            } else {
                fit(&format!("  {line}"), width)
            };
            *line = match (i + 1 == prompt_rows, i == 0) {
                (true, _) => format!("{text}{suffix}"),
                (false, true) => format!("{text}{reset}"),
                (false, false) => text,
            };
        }
        *memo = Some(((cx.width, prompt_max), lines.clone()));
        lines
    }

    /// The hint line under the menu at `cx.width`, with the `page` counter, for `row`
    /// highlighted ([`model::hint_map`]).
    fn hint_line(&self, cx: &Cx<'_, '_>, page: String, row: Option<Row>) -> String {
        let on = (row == Some(Row::TypeOwn), self.filter.is_some());
        let mut memo = self.hint.borrow_mut();
        if let Some((w, p, t, line)) = memo.as_ref() {
            if *w == cx.width && *p == page && *t == on {
                return line.clone();
            }
        }
        let question = &cx.flow.payload().questions[self.q];
        let map = match row {
            Some(row) => model::hint_map(question, row, on.1),
            // No row shown (a filter that matches nothing): no row's words.
            None => model::hint_map(question, Row::Next, on.1),
        };
        let line = cx.look.hint(
            &keymap::hint_line(&map, &[], &page, cx.width, cx.quiet),
            cx.width,
        );
        *memo = Some((cx.width, page, on, line.clone()));
        line
    }

    /// Rows the highlighted option's preview may take: as much as the longest needs, up to
    /// half of what the menu leaves.
    fn preview_height(&self, cx: &Cx<'_, '_>, menu_rows: usize) -> usize {
        let question = &cx.flow.payload().questions[self.q];
        let free = cx.height.saturating_sub(menu_rows + 3);
        let cap = (free / 2).max(2);
        let w = self.preview_width(cx);
        if let Some((at, longest)) = self.preview_rows.get() {
            if at == (w, cap) {
                return longest;
            }
        }
        let mut longest = 0;
        for o in &question.options {
            longest = longest.max(wrapped_len(
                &for_terminal(o.preview.as_deref().unwrap_or("")),
                w,
                cap + 1,
            ));
            if longest > cap {
                break;
            }
        }
        let longest = longest.min(cap);
        self.preview_rows.set(Some(((w, cap), longest)));
        longest
    }

    /// The columns a preview line has: the width less the description's indent and `│ `.
    fn preview_width(&self, cx: &Cx<'_, '_>) -> usize {
        let question = &cx.flow.payload().questions[self.q];
        let indent = cx.look.item_indent() + 4 + model::number(question, Row::Option(0)).len() + 1;
        cx.width.saturating_sub(indent + 2).max(1)
    }

    fn preview_lines(
        &self,
        cx: &Cx<'_, '_>,
        option: usize,
        indent: &str,
        height: usize,
    ) -> Vec<String> {
        let o = &cx.flow.payload().questions[self.q].options[option];
        let text = for_terminal(o.preview.as_deref().unwrap_or(""));
        let w = self.preview_width(cx);
        let total = wrapped_len(&text, w, usize::MAX);
        let shown = if total > height {
            height.saturating_sub(1)
        } else {
            total
        };
        let mut lines: Vec<String> = wrap_head(&text, w, shown)
            .into_iter()
            .map(|l| fit(&format!("{indent}\u{2502} {l}"), cx.width))
            .collect();
        if total > shown {
            lines.push(cx.look.hint(
                &format!("{indent}\u{2502} {}", words::preview_more(total - shown)),
                cx.width,
            ));
        }
        lines
    }
}

/// The prompt's lines (then the question's context, docs/dialects.md), word-wrapped at `width`,
/// at most `max` (the last cut with `…` when more would follow), and how many of them are the
/// prompt's.
fn prompt_lines(
    prompt: &str,
    context: Option<&str>,
    width: usize,
    max: usize,
) -> (Vec<String>, usize) {
    let mut lines = wrap_words(prompt, width);
    let prompt_rows = lines.len();
    if let Some(context) = context {
        lines.extend(wrap_words(context, width));
    }
    if lines.len() > max {
        lines.truncate(max);
        let last = lines.pop().unwrap_or_default();
        lines.push(fit(&format!("{last}\u{2026}"), width));
    }
    let prompt_rows = prompt_rows.min(lines.len());
    (lines, prompt_rows)
}

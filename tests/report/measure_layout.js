/* Injected by tests/report/check_layout.py into a copy of a page: measures every row of every
 * table and every cell's right edge against the viewport at the window's width, and writes the
 * result as JSON into the DOM (a pre element, id layout-result) for --dump-dom to carry out. */
window.addEventListener('load', function () {
	var width = document.documentElement.clientWidth, out = { width: width, rows: 0, tall: [], wide: [] };
	document.querySelectorAll('table').forEach(function (table, t) {
		Array.prototype.forEach.call(table.rows, function (tr, r) {
			out.rows++;
			var cell = tr.cells[0], style = getComputedStyle(cell);
			var line = parseFloat(style.lineHeight) || 1.4 * parseFloat(style.fontSize);
			var room = 3 * line + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom) + 2;
			var height = tr.getBoundingClientRect().height;
			if (height > room)
				out.tall.push({ table: t, row: r, height: Math.round(height), most: Math.round(room) });
			Array.prototype.forEach.call(tr.cells, function (td, c) {
				var right = td.getBoundingClientRect().right;
				if (right > width + 0.5)
					out.wide.push({ table: t, row: r, cell: c, right: Math.round(right) });
			});
		});
	});
	var pre = document.createElement('pre');
	pre.id = 'layout-result';
	pre.textContent = JSON.stringify(out);
	document.body.appendChild(pre);
});

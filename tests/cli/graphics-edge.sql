-- tests/cli/run.sh test_graphics_edge_cases: applied to a copy of its export. Rows whose ranges
-- nsys treats in ways worth pinning down: PIX begin calls paired with every end call of the same
-- thread and correlationId, a negative total hidden yet counted in the percentages, KHR_debug
-- groups named by id, an open group, names of several types. The expected outputs in run.sh are
-- what nsys 2024.2.3 printed for the result.
CREATE TABLE D3D11_PIX_DEBUG_API (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER, endCorrelationId INTEGER, nameId INTEGER, shortContextId INTEGER, frameId INTEGER, color INTEGER, textId INTEGER);
CREATE TABLE KHR_DEBUG_EVENTS (eventClass INTEGER, start INTEGER, end INTEGER, textId INTEGER, globalTid INTEGER, source INTEGER, khrdType INTEGER, id INTEGER, severity INTEGER, correlationId INTEGER, context INTEGER);
INSERT INTO StringIds VALUES (9001,'frame'),(9002,'shadow pass'),(9003,'frame'),(9004,'10'),(9005,'ZZ');
INSERT INTO D3D11_PIX_DEBUG_API(start,end,globalTid,correlationId,endCorrelationId,nameId,shortContextId,frameId,color,textId) VALUES
 (100,110,281474976710657,1,1,9001,5,1,0,9001),(200,210,281474976710657,1,1,9001,5,1,0,NULL),
 (300,310,281474976710657,1,1,9001,5,1,0,NULL),(100,110,281474976710657,2,2,9001,5,1,0,9003),
 (200,210,281474976710657,2,2,9001,5,1,0,NULL),(100,510,281474976710657,3,3,9001,5,1,0,9002),
 (200,210,281474976710657,3,3,9001,5,1,0,NULL),(100,110,281474976710658,4,4,9001,5,1,0,9002),
 (200,210,281474976710657,4,4,9001,5,1,0,NULL);
INSERT INTO KHR_DEBUG_EVENTS(eventClass,start,end,textId,globalTid,source,khrdType,id,severity,correlationId,context) VALUES
 (62,100,110,9001,281474976710657,33354,33385,1,33387,1,1),(62,100,NULL,9003,281474976710657,33354,33385,1,33387,2,1),
 (62,200,210,NULL,281474976710657,33354,33385,9,33387,3,1),(62,200,210,9999,281474976710657,33354,33385,100,33387,4,1),
 (62,200,210,9004,281474976710657,33354,33385,7,33387,5,1),(62,200,210,9005,281474976710657,33354,33385,7,33387,6,1),
 (62,200,210,NULL,281474976710657,33354,33385,NULL,33387,7,1),(62,300,250,9002,281474976710657,33354,33385,7,33387,8,1),
 (63,100,400,9002,281474976710657,33354,33385,7,33387,8,1);
